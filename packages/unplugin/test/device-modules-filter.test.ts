/**
 * Which modules the plugin compiles as device code: every `.sycl.ts` file, those of installed
 * packages (`node_modules`, npm's and pnpm's layouts) included, so that a library of device code
 * such as `@syclts/algorithms` links into the app's program like the app's own modules.
 */
import { expect, test } from 'vitest';
import { rootRelativePath } from '../src/module-path.js';
import { PluginState } from '../src/state.js';

const installed = [
  '/app/node_modules/@syclts/algorithms/src/scan.sycl.ts',
  '/app/node_modules/.pnpm/@syclts+algorithms@0.1.0/node_modules/@syclts/algorithms/src/reduce.sycl.ts',
  'C:\\app\\node_modules\\@syclts\\algorithms\\src\\sort.sycl.ts',
];

test('.sycl.ts modules in node_modules are device modules by default', () => {
  const state = new PluginState({});
  for (const id of installed) expect(state.isDeviceModule(id), id).toBe(true);
  expect(state.isDeviceModule(`${installed[0]}?v=1234`)).toBe(true);
  expect(state.isDeviceModule('/app/node_modules/@syclts/algorithms/src/scan.ts')).toBe(false);
  expect(state.isDeviceModule('\0/app/node_modules/@syclts/algorithms/src/scan.sycl.ts')).toBe(
    false,
  );
});

test('exclude still leaves out what the user names', () => {
  const state = new PluginState({ exclude: /node_modules/ });
  expect(state.isDeviceModule(installed[0] ?? '')).toBe(false);
  expect(state.isDeviceModule('/app/src/kernels.sycl.ts')).toBe(true);
});

test("an installed module's symbolic IDs are prefixed by its path from the root", () => {
  expect(rootRelativePath('/app', installed[0] ?? '')).toBe(
    'node_modules/@syclts/algorithms/src/scan.sycl.ts',
  );
});
