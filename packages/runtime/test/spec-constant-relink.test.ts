/**
 * Specialization constants across a relink (what the dev server does after an edit): in a file
 * of its own, apart from the programs other tests attach. The runtime keeps
 * what it resolved per host object until an attach or relink says otherwise.
 */
import {
  accessor,
  kernel,
  relink,
  type SpecializationId,
  specializationId,
  u32,
} from '@syclts/dsl';
import { expect, test } from 'vitest';
import type { Handler } from '../src/index.js';
import { compileSources } from './support/compile.js';
import { freshQueue, POISON } from './support/gpu.js';

const N = 64;
const ramp = (step: number) => Array.from({ length: N }, (_, i) => step * i);

test.each(['native', 'emulated'] as const)(
  'after a relink, both versions of a constant read the new default, and a value set through either reaches the kernel (%s)',
  async (policy) => {
    const q = await freshQueue({ specConstants: policy });
    const version = (step: number) => `
    import { accessor, kernel, specializationId, u32 } from '@syclts/dsl';
    export const step = specializationId(u32, ${step});
    export const ramp = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, kh, { out }) => {
      const i = item.getId(0);
      out[i] = kh.getSpecializationConstant(step) * i;
    });`;
    const host = (step: number) => ({
      step: specializationId(u32, step),
      ramp: kernel({ range: 1, args: { out: accessor(u32, 'write') } }, () => {}),
    });
    const out = q.buffer(new Uint32Array(N).fill(POISON), { access: 'write' });
    const run = async (k: ReturnType<typeof host>['ramp'], setup?: (cgh: Handler) => void) => {
      await out.write(new Uint32Array(N).fill(POISON));
      await q
        .submit((cgh) => {
          setup?.(cgh);
          cgh.parallelFor(N, k, { out });
        })
        .wait();
      return Array.from(await out.read());
    };
    const set = (id: SpecializationId<typeof u32>, value: number) => (cgh: Handler) =>
      cgh.setSpecializationConstant(id, value);

    const first = host(3);
    const original = compileSources([
      { module: 'src/ramp.sycl.ts', source: version(3), exports: first },
    ]);
    expect(await run(first.ramp)).toEqual(ramp(3));
    expect(await run(first.ramp, set(first.step, 5))).toEqual(ramp(5));

    const second = host(11);
    relink(
      compileSources([{ module: 'src/ramp.sycl.ts', source: version(11), exports: second }]),
      original,
    );
    // Both versions' host objects now name the edited constant, whose default is 11.
    expect(await run(first.ramp)).toEqual(ramp(11));
    expect(await run(second.ramp)).toEqual(ramp(11));
    // A value set through either version's host object reaches the edited kernel; 5 was set
    // before the relink, on the first version, and is not taken for the edited constant's.
    expect(await run(second.ramp, set(first.step, 5))).toEqual(ramp(5));
    expect(await run(first.ramp, set(second.step, 7))).toEqual(ramp(7));
    expect(await run(second.ramp)).toEqual(ramp(11));
  },
);
