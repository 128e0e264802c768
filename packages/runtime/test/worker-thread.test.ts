/**
 * syclts in a worker thread (`node:worker_threads`), in a Node process of its own whose main
 * thread never touched WebGPU: a kernel runs on the software adapter when the worker shares the
 * process's environment, and without that Queue.create says why not (the Vulkan loader finds
 * SwiftShader through the environment, which a worker's process.env copy does not reach).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { errc } from '../src/index.js';
import { type Bundled, bundleFixtures } from './support/bundle.js';
import { POISON, randomU32 } from './support/gpu.js';

const run = promisify(execFile);

/**
 * Starts the worker with `workerData`, sharing the environment when `shared`, and prints its
 * message; the worker ends by itself, its queue and device still alive, and its exit code is the
 * process's (a crash while Dawn tears down fails the test).
 */
const MAIN = `import { SHARE_ENV, Worker } from 'node:worker_threads';
const [sharing, input] = process.argv.slice(2);
const env = sharing === 'shared' ? { env: SHARE_ENV } : {};
const worker = new Worker(new URL('./worker-launch.mjs', import.meta.url), { workerData: JSON.parse(input), ...env });
worker.once('message', (message) => console.log(JSON.stringify(message)));
worker.once('exit', (code) => {
  process.exitCode = code;
});
`;

let bundled: Bundled;

beforeAll(async () => {
  bundled = await bundleFixtures(['worker-launch']);
  await writeFile(join(bundled.dir, 'main.mjs'), MAIN);
});

afterAll(() => bundled.remove());

/** Runs the worker in a fresh process without the Vulkan loader's variables set. */
async function inWorker(sharing: 'shared' | 'own', input: object): Promise<unknown> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['VK_ICD_FILENAMES', 'VK_DRIVER_FILES', 'SYCLTS_ADAPTER']) delete env[name];
  const { stdout } = await run(
    process.execPath,
    [join(bundled.dir, 'main.mjs'), sharing, JSON.stringify(input)],
    { cwd: bundled.dir, env, timeout: 60_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

test('a kernel runs in a worker thread on the software adapter', async () => {
  const [r, c, b] = randomU32(3, 0x3007);
  const rows = 3 + (r! % 20);
  const cols = 5 + (c! % 40);
  const base = b! % 1_000_000;
  const result = await inWorker('shared', { rows, cols, base, poison: POISON });
  const expected = Array.from({ length: rows * cols }, (_, i) => {
    const [row, col] = [Math.floor(i / cols), i % cols];
    return row * 1000 + col + base;
  });
  expect(result).toEqual({ adapter: expect.stringMatching(/\[software\]$/), out: expected });
});

test('a worker that does not share the environment is told how to reach SwiftShader (errc.platform)', async () => {
  const result = await inWorker('own', { rows: 1, cols: 1, base: 0, poison: POISON });
  expect(result).toEqual({
    errc: errc.platform,
    message: expect.stringMatching(
      /did not start; in a worker thread the Vulkan loader reads the process's environment, .* create the Worker with `env: SHARE_ENV`/,
    ),
  });
});
