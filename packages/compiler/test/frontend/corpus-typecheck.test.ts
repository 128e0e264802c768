import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

/** The editor experience: the valid corpus type-checks with tsc against @syclts/dsl's typings. */
test('the valid corpus type-checks against @syclts/dsl', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const project = fileURLToPath(new URL('../corpus/tsconfig.json', import.meta.url));
  let output = '';
  try {
    output = execFileSync(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
      encoding: 'utf8',
    });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe('');
});
