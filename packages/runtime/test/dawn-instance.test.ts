/**
 * Dawn's instance must outlive the devices made through it (collected earlier, it aborts the
 * process). A device an app requests from the adapter `requestAdapter` gives is safe: the
 * runtime keeps its instances for the life of the process. Run in a process of its own, with
 * garbage collections forced while the app holds only its device.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Bundled, bundleFixtures } from './support/bundle.js';
import { POISON, randomU32 } from './support/gpu.js';

const run = promisify(execFile);

let bundled: Bundled;

beforeAll(async () => {
  bundled = await bundleFixtures(['own-device']);
});

afterAll(() => bundled.remove());

test("an app's own device from requestAdapter's adapter survives garbage collection of everything else", async () => {
  const base = randomU32(1, 0xd1)[0]! % 1_000_000;
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', bundled.path('own-device'), String(base), String(POISON)],
    { cwd: bundled.dir, env: { ...process.env, SYCLTS_ADAPTER: '' }, timeout: 60_000 },
  );
  expect(JSON.parse(stdout)).toEqual([0, 1, 2, 1000, 1001, 1002].map((v) => v + base));
});
