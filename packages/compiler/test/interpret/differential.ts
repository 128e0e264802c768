/**
 * The differential check: random well-typed kernels (the property generator's cases, batched
 * into nd-range kernels with device functions, a specialization constant, atomics, a device
 * global and a barrier exchange through workgroup memory) run on the WebGPU adapter and on the
 * interpreter with the same fresh inputs; every output must agree. Integers and bools exactly;
 * f32 bit for bit, or within 2^-16 of the case's largest intermediate magnitude (as the property
 * test: WGSL grants division 2.5 ULP and lets the GPU fuse a multiply and an add or
 * reassociate, and a cancellation magnifies either). Where a rounded f32 meets a comparison or a
 * truncation within that margin, either side is right: such a case is counted as indeterminate
 * for those inputs, not compared; only cases without f32 feed the shared effects.
 */
import type { JsonValue } from '@syclts/dsl';
import { emitProgram } from '../../src/index.js';
import { interpretKernel } from '../../src/interpret/index.js';
import { linkSources, type Program, runKernel } from '../frontend/gpu.js';
import {
  type Case,
  dslImport,
  generateCase,
  INPUTS,
  Rand,
  type Type,
  tolerance,
  type Value,
} from '../frontend/property/generator.js';

const MODULE = 'diff/cases.sycl.ts';
/** Items per workgroup and workgroups per launch. */
const WORKGROUP = 4;
const GROUPS = 2;
const ITEMS = WORKGROUP * GROUPS;
const DEPTH = 3;

const INPUT_NAMES = [...INPUTS.keys()];
const DSL_TYPE: Record<string, string> = { i32: 'i32', u32: 'u32', f32: 'f32', bool: 'bool' };

interface KernelPlan {
  readonly name: string;
  readonly cases: readonly Case[];
  /** Cases computed by a device function of the inputs rather than inline. */
  readonly inFunction: readonly boolean[];
}

export interface Disagreement {
  readonly kernel: string;
  readonly case: number;
  readonly item: number;
  readonly component: number;
  readonly gpu: number;
  readonly cpu: number;
  readonly type: string;
  readonly text: string;
}

const typeName = (t: Type) =>
  t.n === 1
    ? DSL_TYPE[t.s]!
    : `vec${t.n}${t.s === 'f32' ? 'f' : t.s === 'i32' ? 'i' : t.s === 'u32' ? 'u' : 'b'}`;

function store(type: Type, component: string): string {
  const v = type.n === 1 ? 'r' : `r.${component}`;
  if (type.s === 'i32') return `u32(${v})`;
  if (type.s === 'f32') return `bitcastU32(${v})`;
  if (type.s === 'bool') return `${v} ? 1 : 0`;
  return v;
}

function functionSource(plan: KernelPlan, k: number): string {
  const c = plan.cases[k]!;
  const args = INPUT_NAMES.map((n) => DSL_TYPE[INPUTS.get(n)!.s]).join(', ');
  return [
    `const ${plan.name}_f${k} = deviceFunction({ args: [${args}], returns: ${typeName(c.type)} }, (${INPUT_NAMES.join(', ')}) => {`,
    ...c.text.split('\n').map((l) => `  ${l}`),
    '  return r;',
    '});',
  ].join('\n');
}

function kernelSource(plan: KernelPlan): string {
  const n = plan.cases.length;
  const lines = [
    ...plan.cases.flatMap((_, k) => (plan.inFunction[k] ? [functionSource(plan, k)] : [])),
    `export const ${plan.name}_seed = specializationId(u32, 7);`,
    `export const ${plan.name}_total = deviceGlobal(atomic(u32));`,
    `export const ${plan.name}_fmix = deviceGlobal(array(atomic(f32), 3));`,
    `export const ${plan.name} = kernel(`,
    `  { ndRange: 1, workgroupSize: [${WORKGROUP}], args: { ai: accessor(i32, 'read'), bu: accessor(u32, 'read'), cf: accessor(f32, 'read'), fl: accessor(u32, 'read'), out: accessor(u32, 'write'), sums: accessor(atomic(u32), 'read_write') }, local: { sh: workgroupArray(u32, ${WORKGROUP}) } },`,
    '  (item, kh, { ai, bu, cf, fl, out, sums }, { sh }) => {',
    '    const g = item.getGlobalId(0);',
    '    const l = item.getLocalId(0);',
    ...[0, 1, 2, 3].map(
      (i) =>
        `    const a${i} = ai[g * 4 + ${i}]!;\n    const b${i} = bu[g * 4 + ${i}]! ${i === 3 ? `+ kh.getSpecializationConstant(${plan.name}_seed)` : ''};\n    const c${i} = cf[g * 4 + ${i}]!;`,
    ),
    '    const p0 = fl[g * 2]! !== 0;',
    '    const p1 = fl[g * 2 + 1]! !== 0;',
    '    let mix = u32(0);',
  ];
  for (const [k, c] of plan.cases.entries()) {
    lines.push('    {');
    if (plan.inFunction[k])
      lines.push(`      const r = ${plan.name}_f${k}(${INPUT_NAMES.join(', ')});`);
    else lines.push(...c.text.split('\n').map((l) => `      ${l}`));
    for (let j = 0; j < c.type.n; j++) {
      lines.push(`      const w${j} = u32(${store(c.type, 'xyzw'[j]!)});`);
      lines.push(`      out[(g * ${n} + ${k}) * 4 + ${j}] = w${j};`);
      // Only cases without f32, exact everywhere, feed the shared effects.
      if (!c.usesFloat) {
        lines.push(`      mix = mix ^ w${j};`);
        // An effect in a branch: how many items' results end in binary 01.
        if (j === 0)
          lines.push('      if ((w0 & 3) === 1) {', '        atomicAdd(sums[1]!, 1);', '      }');
      }
    }
    lines.push('    }');
  }
  // Order-independent effects: sums of every item's mix, and a neighbour's mix through a barrier.
  lines.push(
    '    atomicAdd(sums[0]!, mix);',
    `    atomicAdd(${plan.name}_total, mix & 255);`,
    // f32 atomics (compare-exchange loops): a sum of small integers, exact in any order, and
    // min and max of the mix's bits as f32 (NaN, infinities, zeros and subnormals among them).
    `    atomicAdd(${plan.name}_fmix.value[0]!, f32(mix & 255));`,
    `    atomicMin(${plan.name}_fmix.value[1]!, bitcastF32(mix));`,
    `    atomicMax(${plan.name}_fmix.value[2]!, bitcastF32(mix));`,
    // Barriers in a uniform loop: the items pass their mix around the workgroup twice.
    '    for (let t = u32(0); t < 2; t++) {',
    '      sh[l] = mix + t;',
    '      item.barrier();',
    `      mix = mix ^ sh[(l + 1) % ${WORKGROUP}]!;`,
    '      item.barrier();',
    '    }',
    '    sh[l] = mix;',
    '    item.barrier();',
    `    out[${ITEMS * n * 4} + g] = sh[(l + 1) % ${WORKGROUP}]!;`,
    '  },',
    ');',
  );
  return lines.join('\n');
}

const IMPORTS = `${dslImport('accessor', 'array', 'atomic', 'atomicAdd', 'atomicMax', 'atomicMin', 'bitcastF32', 'bool', 'deviceFunction', 'deviceGlobal', 'f32', 'kernel', 'specializationId', 'workgroupArray')}\n`;

export interface Round {
  readonly source: string;
  readonly checked: number;
  /** Results not compared: a rounded f32 met a jump too closely for either side to be wrong. */
  readonly indeterminate: number;
  readonly cases: number;
  readonly disagreements: readonly Disagreement[];
}

/** Builds `kernels` kernels of `casesPerKernel` cases from `seed`, runs them both ways, compares. */
export async function differentialRound(
  seed: number,
  kernels: number,
  casesPerKernel: number,
): Promise<Round> {
  const rand = new Rand(seed);
  const plans: KernelPlan[] = Array.from({ length: kernels }, (_, i) => {
    const cases = Array.from({ length: casesPerKernel }, () => generateCase(rand, INPUTS, DEPTH));
    return { name: `k${i}`, cases, inFunction: cases.map(() => rand.chance(0.2)) };
  });
  const source = IMPORTS + plans.map(kernelSource).join('\n\n');
  const linked = linkSources({ [MODULE]: source }, 'both');
  const program: Program = emitProgram(linked, { validateIr: true });
  const disagreements: Disagreement[] = [];
  let checked = 0;
  let indeterminate = 0;
  for (const plan of plans) {
    const n = plan.cases.length;
    const int = () =>
      rand.pick([0, 1, -1, 2, 7, -7, 100, 2 ** 31 - 1, -(2 ** 31), rand.int(2 ** 32) | 0]);
    const uint = () => rand.pick([0, 1, 2, 31, 32, 255, 2 ** 32 - 1, 2 ** 31, rand.int(2 ** 32)]);
    const inputs = {
      ai: Int32Array.from({ length: ITEMS * 4 }, int),
      bu: Uint32Array.from({ length: ITEMS * 4 }, uint),
      cf: Float32Array.from({ length: ITEMS * 4 }, () => Math.fround((rand.next() - 0.5) * 20)),
      fl: Uint32Array.from({ length: ITEMS * 2 }, () => rand.int(2)),
    };
    const outLength = ITEMS * n * 4 + ITEMS;
    const args = (): Record<string, ArrayBufferView | JsonValue> => ({
      ...inputs,
      out: new Uint32Array(outLength).fill(0xdeadbeef),
      sums: Uint32Array.of(rand.int(2 ** 32), 0, 0, 0),
    });
    const shared = args();
    const kernel = `${MODULE}#${plan.name}`;
    const seedId = `${MODULE}#${plan.name}_seed`;
    const totalId = `${MODULE}#${plan.name}_total`;
    const fmixId = `${MODULE}#${plan.name}_fmix`;
    // The f32 words start at a small integer, and at a number, a zero, an infinity or NaN.
    const start = () => rand.pick([0, -0, Infinity, -Infinity, Number.NaN, rand.int(200) - 100]);
    // Both variants of the program: constants as overrides, and in the emulation buffer.
    const mode = plans.indexOf(plan) % 2 === 0 ? 'native' : 'emulated';
    const launch = {
      kernel,
      mode,
      range: [ITEMS],
      args: shared,
      specConstants: { [seedId]: rand.int(2 ** 32) },
      deviceGlobals: {
        [totalId]: Uint32Array.of(rand.int(2 ** 32)),
        [fmixId]: Float32Array.of(rand.int(200), start(), start()),
      },
    };
    const gpu = await runKernel(program, launch as Parameters<typeof runKernel>[1]);
    const cpu = interpretKernel(linked.images, launch);
    const gOut = new Uint32Array(gpu.accessors.out!);
    const cOut = new Uint32Array(cpu.accessors.out!);
    const record = (k: number, item: number, j: number, type: string, text: string) =>
      disagreements.push({
        kernel: plan.name,
        case: k,
        item,
        component: j,
        gpu: gOut[(item * n + k) * 4 + j]!,
        cpu: cOut[(item * n + k) * 4 + j]!,
        type,
        text,
      });
    for (let item = 0; item < ITEMS; item++) {
      const values = itemInputs(inputs, item, launch.specConstants[seedId]!);
      for (const [k, c] of plan.cases.entries()) {
        const expected = c.run(values);
        if (expected.fragile) {
          indeterminate += c.type.n;
          continue;
        }
        const bound = tolerance(expected.mag, expected.err);
        for (let j = 0; j < c.type.n; j++) {
          const at = (item * n + k) * 4 + j;
          checked++;
          if (gOut[at] === cOut[at]) continue;
          if (c.type.s === 'f32') {
            const [x, y] = [f32(gOut[at]!), f32(cOut[at]!)];
            if (Math.abs(x - y) <= bound) continue;
          }
          record(k, item, j, `${c.type.s}x${c.type.n}`, c.text);
        }
      }
    }
    const tail = (a: Uint32Array) => [...a.subarray(ITEMS * n * 4)].join(',');
    const gSums = words(gpu.accessors.sums!);
    const cSums = words(cpu.accessors.sums!);
    const gTotal = new Uint32Array(gpu.deviceGlobals[totalId]!)[0];
    const cTotal = new Uint32Array(cpu.deviceGlobals[totalId]!)[0];
    const gFmix = words(gpu.deviceGlobals[fmixId]!);
    const cFmix = words(cpu.deviceGlobals[fmixId]!);
    checked += 4;
    const effects = [
      ['barrier exchange', tail(gOut), tail(cOut)],
      ['atomic sum', gSums, cSums],
      ['device global', gTotal, cTotal],
      ['f32 atomics', gFmix, cFmix],
    ] as const;
    for (const [what, g, c] of effects) {
      if (g !== c) {
        disagreements.push({
          kernel: plan.name,
          case: -1,
          item: -1,
          component: -1,
          gpu: Number(String(g).split(',')[0]),
          cpu: Number(String(c).split(',')[0]),
          type: what,
          text: `${what}: gpu ${g}, cpu ${c}`,
        });
      }
    }
  }
  return { source, checked, indeterminate, cases: kernels * casesPerKernel, disagreements };
}

const words = (b: ArrayBuffer) => [...new Uint32Array(b)].join(',');

function f32(bits: number): number {
  return new Float32Array(Uint32Array.of(bits).buffer)[0]!;
}

function itemInputs(
  inputs: { ai: Int32Array; bu: Uint32Array; cf: Float32Array; fl: Uint32Array },
  item: number,
  seed: number,
): Map<string, Value> {
  return new Map<string, Value>([
    ...[0, 1, 2, 3].map((i): [string, Value] => [`a${i}`, [inputs.ai[item * 4 + i]!]]),
    ...[0, 1, 2, 3].map((i): [string, Value] => [
      `b${i}`,
      [(inputs.bu[item * 4 + i]! + (i === 3 ? seed : 0)) >>> 0],
    ]),
    ...[0, 1, 2, 3].map((i): [string, Value] => [`c${i}`, [inputs.cf[item * 4 + i]!]]),
    ...[0, 1].map((i): [string, Value] => [`p${i}`, [inputs.fl[item * 2 + i]! !== 0 ? 1 : 0]]),
  ]);
}
