import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

const run = promisify(execFile);
const runtime = fileURLToPath(new URL('../src/index.ts', import.meta.url));

// Dawn is an optional peer dependency: a Node app without it must learn what to install. The app
// is bundled, with no `external` setting (the runtime keeps Dawn's import out of the bundler's
// sight), into a folder outside the workspace, where `webgpu` cannot resolve.
test('without the webgpu package, Queue.create in Node is errc.platform saying what to install, and isSupported() is false', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'syclts-no-dawn-'));
  try {
    const entry = join(dir, 'main.ts');
    await writeFile(
      entry,
      `import { isSupported, Queue } from ${JSON.stringify(runtime)};
const supported = await isSupported();
try {
  await Queue.create();
  console.log(JSON.stringify({ created: true }));
} catch (e) {
  console.log(JSON.stringify({ supported, name: e.name, errc: e.errc, message: e.message }));
}
`,
    );
    const app = join(dir, 'app.mjs');
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      conditions: ['@syclts/source'],
      outfile: app,
      logLevel: 'silent',
    });
    const { stdout } = await run(process.execPath, [app], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({
      supported: false,
      name: 'SyclError',
      errc: 'platform',
      message: expect.stringContaining('`npm install webgpu`'),
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
