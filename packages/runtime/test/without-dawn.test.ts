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
// is bundled with `webgpu` external into a folder outside the workspace, where it cannot resolve.
test('without the webgpu package, Queue.create in Node is errc.platform saying what to install', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'syclts-no-dawn-'));
  try {
    const entry = join(dir, 'main.ts');
    await writeFile(
      entry,
      `import { Queue } from ${JSON.stringify(runtime)};
try {
  await Queue.create();
  console.log(JSON.stringify({ created: true }));
} catch (e) {
  console.log(JSON.stringify({ name: e.name, errc: e.errc, message: e.message }));
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
      external: ['webgpu'],
      outfile: app,
      logLevel: 'silent',
    });
    const { stdout } = await run(process.execPath, [app], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({
      name: 'SyclError',
      errc: 'platform',
      message: expect.stringContaining('`npm install webgpu`'),
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
