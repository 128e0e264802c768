/**
 * Random specialization-constant types (nested structs, arrays, vectors, matrices, bool): the
 * harness writes values with the ABI module (@syclts/dsl) where the link step lays them out, the
 * emitted WGSL reads every leaf where WGSL's own layout puts it, on the adapter. Any disagreement
 * shows up as a wrong value, native or emulated.
 */
import type { DataType, JsonValue, ScalarName } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { emitProgram, link } from '../../src/index.js';
import { runKernel } from '../support/gpu.js';
import {
  accessorParam,
  assign,
  deviceObject,
  index,
  kernelDecl,
  leafReads,
  lit,
  modules,
  param,
  resolveRelative,
  spec,
  specDecl,
} from '../support/ir.js';
import { leafValues } from '../support/values.js';

/** mulberry32: small, seedable, good enough to draw shapes and values. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SCALARS: readonly Exclude<ScalarName, 'f16'>[] = ['i32', 'u32', 'f32', 'bool'];

function drawType(rnd: () => number, depth: number): DataType {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const kind =
    depth >= 2
      ? pick(['scalar', 'vector', 'matrix'] as const)
      : pick(['scalar', 'vector', 'matrix', 'array', 'struct'] as const);
  switch (kind) {
    case 'scalar':
      return { kind: 'scalar', scalar: pick(SCALARS) };
    case 'vector':
      return { kind: 'vector', component: pick(SCALARS), size: pick([2, 3, 4] as const) };
    case 'matrix':
      return {
        kind: 'matrix',
        component: 'f32',
        columns: pick([2, 3, 4] as const),
        rows: pick([2, 3, 4] as const),
      };
    case 'array':
      return {
        kind: 'array',
        element: drawType(rnd, depth + 1),
        length: 1 + Math.floor(rnd() * 3),
      };
    case 'struct':
      return {
        kind: 'struct',
        fields: Array.from({ length: 1 + Math.floor(rnd() * 3) }, (_, i) => ({
          name: `f${i}`,
          type: drawType(rnd, depth + 1),
        })),
      };
  }
}

function drawValue(rnd: () => number, type: DataType): JsonValue {
  const scalar = (s: ScalarName): JsonValue => {
    const n = Math.floor(rnd() * 2000) - 1000;
    if (s === 'bool') return rnd() < 0.5;
    if (s === 'u32') return Math.abs(n) + 1;
    if (s === 'i32') return n === 0 ? -7 : n;
    return n / 8 + 0.125;
  };
  switch (type.kind) {
    case 'scalar':
    case 'atomic':
      return scalar(type.scalar);
    case 'vector':
      return Array.from({ length: type.size }, () => scalar(type.component));
    case 'matrix':
      return Array.from({ length: type.columns * type.rows }, () => scalar('f32'));
    case 'array':
      return Array.from({ length: type.length }, () => drawValue(rnd, type.element));
    case 'struct':
      return Object.fromEntries(type.fields.map((f) => [f.name, drawValue(rnd, f.type)]));
  }
}

// Fresh types every run; a failure names the seed, and SYCLTS_PROPERTY_SEED replays the run.
const RUN_SEED = Number(process.env.SYCLTS_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`[syclts] random layouts: SYCLTS_PROPERTY_SEED=${RUN_SEED}`);
const seeds = [0, 1, 2, 3].map((i) => (RUN_SEED + i * 7919) | 0);

describe.each(seeds)('seed %i', (seed) => {
  const rnd = random(seed);
  const constants = Array.from({ length: 6 }, (_, i) => {
    const type = drawType(rnd, 0);
    return { name: `c${i}`, type, folded: drawValue(rnd, type), set: drawValue(rnd, type) };
  });
  const reads = constants.flatMap((c) => leafReads(spec(c.name, c.type)));
  const object = deviceObject('src/random.sycl.ts', {
    specConstants: constants.map((c) => specDecl(c.name, c.type, c.folded)),
    kernels: [
      kernelDecl(
        'leaves',
        [accessorParam('out', { kind: 'scalar', scalar: 'f32' }, 'write')],
        reads.map((r, j) => assign(index(param('out', r.type), lit(j), r.type), r)),
      ),
    ],
  });
  const { images, programGlobals, diagnostics } = link(
    { modules: modules(object), resolveImport: resolveRelative },
    { specConstants: 'both' },
  );
  const image = emitProgram({ images, programGlobals }, { validateIr: true }).images[0];

  test.each(['native', 'emulated'] as const)('every leaf reads back (%s)', async (mode) => {
    expect(diagnostics).toEqual([]);
    for (const which of ['folded', 'set'] as const) {
      const result = await runKernel(image!, 'src/random.sycl.ts#leaves', {
        mode,
        range: [1],
        accessors: { out: new Float32Array(reads.length + 1).fill(Number.NaN) },
        specConstants:
          which === 'set'
            ? Object.fromEntries(constants.map((c) => [`src/random.sycl.ts#${c.name}`, c.set]))
            : {},
      });
      const want = constants.flatMap((c) => leafValues(c.type, c[which]));
      const got = [...new Float32Array(result.accessors.out!)];
      expect(
        got.slice(0, reads.length),
        `${which}: ${JSON.stringify(constants.map((c) => c.type))}`,
      ).toEqual(want);
      expect(got[reads.length]).toBeNaN();
    }
  });
});
