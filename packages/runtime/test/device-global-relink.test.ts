/**
 * Device-global storage across a relink (what the dev server does after an edit): in a file of
 * its own, apart from the programs other tests attach.
 */
import { accessor, type DeviceGlobal, deviceGlobal, kernel, relink, u32 } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { compileSources } from './support/compile.js';
import { freshQueue, POISON } from './support/gpu.js';

test('a relink keeps what did not change and starts what is new or changed from its initial value', async () => {
  const q = await freshQueue();
  const version = (init: number, extra: boolean) => `
    import { accessor, deviceGlobal, kernel, u32 } from '@syclts/dsl';
    export const kept = deviceGlobal(u32, {}, 5);
    export const changed = deviceGlobal(u32, {}, ${init});
    ${extra ? 'export const fresh = deviceGlobal(u32, {}, 70);' : ''}
    export const bumpAll = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
      kept.value += 1;
      changed.value += 1;
      ${extra ? 'fresh.value += 1;' : ''}
      out[item.getId(0)] = kept.value;
    });`;
  const host = (extra: boolean) => ({
    kept: deviceGlobal(u32, {}, 5),
    changed: deviceGlobal(u32, {}, 1),
    ...(extra ? { fresh: deviceGlobal(u32, {}, 70) } : {}),
    bumpAll: kernel({ range: 1, args: { out: accessor(u32, 'write') } }, () => {}),
  });
  const first = host(false);
  const original = compileSources([
    { module: 'src/hot.sycl.ts', source: version(1, false), exports: first },
  ]);
  const out = q.buffer(new Uint32Array(1).fill(POISON));
  await q.parallelFor(1, first.bumpAll, { out }).wait();
  await q.parallelFor(1, first.bumpAll, { out }).wait();
  const second = host(true);
  const edited = compileSources([
    { module: 'src/hot.sycl.ts', source: version(9, true), exports: second },
  ]);
  relink(edited, original);
  await q.parallelFor(1, second.bumpAll, { out }).wait();
  const read = async (g: DeviceGlobal) => {
    const one = [POISON];
    await q.copy(g as DeviceGlobal<typeof u32, 'read_write'>, one).wait();
    return one[0];
  };
  // The objects of the first version reach the edited program too.
  expect(await read(first.kept)).toBe(5 + 3);
  expect(await read(second.changed)).toBe(9 + 1);
  expect(await read(second.fresh!)).toBe(70 + 1);
});
