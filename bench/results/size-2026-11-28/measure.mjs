// Bundle size of the minimal app (bench/src/size) against the runtime and DSL of each commit given.
// Run from the repository root after a build: node bench/results/size-2026-11-28/measure.mjs C...
import { execSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import syclts from 'unplugin-syclts/esbuild';

const repo = process.cwd();
for (const c of process.argv.slice(2)) {
  const dir = join(tmpdir(), 'syclts-size', c);
  if (!existsSync(`${dir}/ok`)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execSync(
      `git -C ${repo} archive ${c} packages/runtime/package.json packages/runtime/src packages/dsl/package.json packages/dsl/src | tar -x -C ${dir}`,
    );
    mkdirSync(`${dir}/node_modules/@syclts`, { recursive: true });
    symlinkSync(`${dir}/packages/runtime`, `${dir}/node_modules/@syclts/runtime`);
    symlinkSync(`${dir}/packages/dsl`, `${dir}/node_modules/@syclts/dsl`);
    mkdirSync(`${dir}/app`);
    cpSync(`${repo}/bench/src/size/app.ts`, `${dir}/app/app.ts`);
    cpSync(`${repo}/bench/src/size/scale.sycl.ts`, `${dir}/app/scale.sycl.ts`);
    execSync(`touch ${dir}/ok`);
  }
  try {
    const result = await esbuild.build({
      absWorkingDir: `${dir}/app`,
      entryPoints: ['app.ts'],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      conditions: ['@syclts/source'],
      write: false,
      outdir: 'out',
      logLevel: 'silent',
      plugins: [syclts({})],
    });
    const code = result.outputFiles.find((f) => f.path.endsWith('.js')).text;
    const program = code.match(/JSON\.parse\((["'`])\{\\?"version[\s\S]*?[^\\]\1\)/)?.[0] ?? '';
    const rest = code.replace(program, '');
    console.log(c, gzipSync(rest, { level: 9 }).length, program ? '' : '(no program found)');
  } catch (e) {
    console.log(c, 'failed', e.message.split('\n')[0]);
  }
}
