/**
 * Group functions and sub-groups on the adapter, in both lowerings (WGSL's sub-group built-ins,
 * and workgroup memory forced): every operation, type and group kind on fresh random inputs,
 * against a CPU model of SYCL's definitions. The work-group (3 x 16 = 48 items) is no power of
 * two, and splits into sub-groups the last of which is partial in the workgroup lowering (32 + 16).
 * The interpreter gives the workgroup lowering's values too.
 */
import type { CollectiveLowering } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { build } from '../../src/index.js';
import { interpretKernel } from '../../src/interpret/index.js';
import { linkSources } from '../frontend/gpu.js';
import { runKernel } from '../support/gpu.js';
import { combine, identity, OPS, type Op, type Scalar } from '../support/group-model.js';

const M = 'src/groups.sycl.ts';
const WG = [3, 16] as const;
const GROUPS = [2, 3] as const;
const N = WG[0] * WG[1];
const ITEMS = N * GROUPS[0] * GROUPS[1];

/** What one output slot holds: a function of the item's group members. */
type Slot =
  | { kind: 'reduce' | 'exclusive' | 'inclusive'; scope: 'g' | 'sg'; op: Op; init: boolean }
  | { kind: 'broadcast'; scope: 'g' | 'sg' }
  | { kind: 'shiftLeft' | 'shiftRight' | 'permute' | 'select' };

function slots(s: Scalar): Slot[] {
  const out: Slot[] = [];
  for (const op of OPS[s]) {
    for (const scope of ['g', 'sg'] as const) {
      for (const kind of ['reduce', 'exclusive', 'inclusive'] as const) {
        out.push({ kind, scope, op, init: false });
      }
      out.push({ kind: 'reduce', scope, op, init: true });
      out.push({ kind: 'exclusive', scope, op, init: true });
      out.push({ kind: 'inclusive', scope, op, init: true });
    }
  }
  out.push({ kind: 'broadcast', scope: 'g' }, { kind: 'broadcast', scope: 'sg' });
  out.push({ kind: 'shiftLeft' }, { kind: 'shiftRight' }, { kind: 'permute' }, { kind: 'select' });
  return out;
}

const DSL: Record<Slot['kind'], string> = {
  reduce: 'reduceOverGroup',
  exclusive: 'exclusiveScanOverGroup',
  inclusive: 'inclusiveScanOverGroup',
  broadcast: 'groupBroadcast',
  shiftLeft: 'shiftGroupLeft',
  shiftRight: 'shiftGroupRight',
  permute: 'permuteGroupByXor',
  select: 'selectFromGroup',
};

function call(slot: Slot): string {
  switch (slot.kind) {
    case 'reduce':
    case 'exclusive':
      return `${DSL[slot.kind]}(${slot.scope}, x${slot.init ? ', y' : ''}, ${slot.op})`;
    case 'inclusive':
      return `${DSL[slot.kind]}(${slot.scope}, x, ${slot.op}${slot.init ? ', y' : ''})`;
    case 'broadcast':
      return `groupBroadcast(${slot.scope}, x, k % ${slot.scope}.getLocalLinearRange())`;
    case 'shiftLeft':
    case 'shiftRight':
      return `${DSL[slot.kind]}(sg, x, d)`;
    case 'permute':
      return 'permuteGroupByXor(sg, x, d)';
    case 'select':
      return 'selectFromGroup(sg, x, e)';
  }
}

/** Per item: the slots, then the flags and queries in `flags` (QUERIES of them). */
const QUERIES = 12;

function source(s: Scalar): string {
  const list = slots(s);
  const K = list.length;
  const lines = list.map((slot, j) => `    out[i * ${K} + ${j}] = ${call(slot)};`);
  return `
import { accessor, ${s}, u32, kernel, reduceOverGroup, exclusiveScanOverGroup, inclusiveScanOverGroup,
  groupBroadcast, shiftGroupLeft, shiftGroupRight, permuteGroupByXor, selectFromGroup, anyOfGroup,
  allOfGroup, noneOfGroup, plus, multiplies, minimum, maximum, bitAnd, bitOr, bitXor, logicalAnd,
  logicalOr } from '@syclts/dsl';

export const groups_${s} = kernel(
  { ndRange: 2, workgroupSize: [${WG[0]}, ${WG[1]}],
    args: { xs: accessor(${s}, 'read'), ks: accessor(u32, 'read'), out: accessor(${s}, 'write'),
      flags: accessor(u32, 'write') } },
  (item, kh, { xs, ks, out, flags }) => {
    const g = item.getGroup();
    const sg = item.getSubGroup();
    const i = item.getGlobalLinearId();
    const x = xs[i]!;
    const y = xs[i + ${ITEMS}]!;
    const k = ks[g.getGroupLinearId()]!;
    const d = ks[${GROUPS[0] * GROUPS[1]} + g.getGroupLinearId()]! % 6;
    const e = ks[${GROUPS[0] * GROUPS[1] * 2} + i]! % 40;
${lines.join('\n')}
    const p = (ks[${GROUPS[0] * GROUPS[1] * 2 + ITEMS} + i]! & 7) != 0;
    const f = i * ${QUERIES};
    flags[f] = u32(anyOfGroup(g, p));
    flags[f + 1] = u32(allOfGroup(g, p));
    flags[f + 2] = u32(noneOfGroup(g, p));
    flags[f + 3] = u32(anyOfGroup(sg, p)) + 2 * u32(allOfGroup(sg, p)) + 4 * u32(noneOfGroup(sg, p));
    flags[f + 4] = u32(reduceOverGroup(g, p, logicalAnd)) + 2 * u32(reduceOverGroup(sg, p, logicalOr));
    flags[f + 5] = u32(groupBroadcast(sg, p, 1)) + 2 * u32(selectFromGroup(sg, p, e));
    flags[f + 6] = sg.getGroupId() + 1000 * sg.getLocalId();
    flags[f + 7] = sg.getLocalRange() + 1000 * sg.getMaxLocalRange();
    flags[f + 8] = sg.getGroupRange() + 1000 * u32(sg.leader()) + 10000 * u32(g.leader());
    flags[f + 9] = g.getGroupLinearId() + 1000 * g.getGroupLinearRange();
    flags[f + 10] = g.getLocalLinearId() + 1000 * g.getLocalLinearRange();
    flags[f + 11] = g.getLocalId(0) + 10 * g.getLocalId(1) + 100 * g.getGroupId(0) + 1000 * g.getGroupId(1);
  },
);
`;
}

/** Random values that keep every f32 result exact: signed powers of two from 1/2 to 8. */
function inputs(s: Scalar, seed: number): ArrayBufferView {
  const raw = randomU32(ITEMS * 2, seed);
  if (s === 'u32') return raw;
  if (s === 'i32') return new Int32Array(raw.buffer);
  return Float32Array.from(raw, (r) => (r & 1 ? -1 : 1) * 2 ** (((r >>> 1) % 5) - 1));
}

interface Members {
  /** The item's group (or sub-group) members' global linear ids, in local linear order. */
  readonly g: number[];
  readonly sg: number[];
  /** The item's index in each. */
  readonly gi: number;
  readonly sgi: number;
}

/** Each item's groups: sub-groups are runs of `size` items in local linear order. */
function members(size: number): Members[] {
  const out: Members[] = [];
  const range = [WG[0] * GROUPS[0], WG[1] * GROUPS[1]] as const;
  for (let gy = 0; gy < range[0]; gy++) {
    for (let gx = 0; gx < range[1]; gx++) {
      const group = [Math.floor(gy / WG[0]), Math.floor(gx / WG[1])];
      const local = (gy % WG[0]) * WG[1] + (gx % WG[1]);
      const g: number[] = [];
      for (let l = 0; l < N; l++) {
        const ly = group[0]! * WG[0] + Math.floor(l / WG[1]);
        const lx = group[1]! * WG[1] + (l % WG[1]);
        g.push(ly * range[1]! + lx);
      }
      const base = Math.floor(local / size) * size;
      out[gy * range[1]! + gx] = {
        g,
        sg: g.slice(base, Math.min(base + size, N)),
        gi: local,
        sgi: local - base,
      };
    }
  }
  return out;
}

function expected(
  s: Scalar,
  xs: ArrayLike<number>,
  ks: Uint32Array,
  size: number,
): { out: number[]; flags: number[] } {
  const list = slots(s);
  const groupsOf = members(size);
  const out: number[] = [];
  const flags: number[] = [];
  const groupCount = GROUPS[0] * GROUPS[1];
  for (let i = 0; i < ITEMS; i++) {
    const m = groupsOf[i]!;
    const gl =
      Math.floor(Math.floor(i / (WG[1] * GROUPS[1])) / WG[0]) * GROUPS[1] +
      Math.floor((i % (WG[1] * GROUPS[1])) / WG[1]);
    const k = ks[gl]!;
    const d = ks[groupCount + gl]! % 6;
    const e = ks[groupCount * 2 + i]! % 40;
    const x = (j: number) => xs[j]!;
    const y = xs[i + ITEMS]!;
    for (const slot of list) {
      const scope = 'scope' in slot ? slot.scope : 'sg';
      const ids = m[scope];
      const at = scope === 'g' ? m.gi : m.sgi;
      switch (slot.kind) {
        case 'reduce':
        case 'exclusive':
        case 'inclusive': {
          const upto =
            slot.kind === 'reduce' ? ids.length : slot.kind === 'exclusive' ? at : at + 1;
          let r = slot.init ? y : identity(s, slot.op);
          for (let j = 0; j < upto; j++) r = combine(s, slot.op, r, x(ids[j]!));
          out.push(r);
          break;
        }
        case 'broadcast':
          out.push(x(ids[k % ids.length]!));
          break;
        case 'shiftLeft':
          out.push(at + d < ids.length ? x(ids[at + d]!) : x(i));
          break;
        case 'shiftRight':
          out.push(at >= d ? x(ids[at - d]!) : x(i));
          break;
        case 'permute':
          out.push((at ^ d) < ids.length ? x(ids[at ^ d]!) : x(i));
          break;
        case 'select':
          out.push(e < ids.length ? x(ids[e]!) : x(i));
          break;
      }
    }
    const p = (j: number) => (ks[groupCount * 2 + ITEMS + j]! & 7) !== 0;
    const any = (ids: number[]) => ids.some(p);
    const all = (ids: number[]) => ids.every(p);
    const b = (v: boolean) => (v ? 1 : 0);
    flags.push(
      b(any(m.g)),
      b(all(m.g)),
      b(!any(m.g)),
      b(any(m.sg)) + 2 * b(all(m.sg)) + 4 * b(!any(m.sg)),
      b(all(m.g)) + 2 * b(any(m.sg)),
      b(1 < m.sg.length ? p(m.sg[1]!) : p(i)) + 2 * b(e < m.sg.length ? p(m.sg[e]!) : p(i)),
      Math.floor(m.gi / size) + 1000 * m.sgi,
      m.sg.length + 1000 * Math.min(size, N),
      Math.ceil(N / size) + 1000 * b(m.sgi === 0) + 10000 * b(m.gi === 0),
      gl + 1000 * groupCount,
      m.gi + 1000 * N,
      Math.floor(m.gi / WG[1]) +
        10 * (m.gi % WG[1]) +
        100 * Math.floor(gl / GROUPS[1]) +
        1000 * (gl % GROUPS[1]),
    );
  }
  return { out, flags };
}

describe.each(['subgroups', 'workgroup'] as const)(
  'group functions (%s lowering)',
  (lowering: CollectiveLowering) => {
    test.each(['f32', 'i32', 'u32'] as const)(
      'every operation on %s against the CPU model',
      async (s) => {
        const { program, diagnostics } = build([{ module: M, source: source(s) }], {
          specConstants: 'both',
          validateIr: true,
        });
        expect(diagnostics).toEqual([]);
        const image = program!.images[0]!;
        expect(image.wgsl.native).toContain('enable subgroups;');
        expect(image.workgroupLowering!.wgsl.native).not.toMatch(
          /enable subgroups|subgroup[A-Z]|@builtin\(subgroup/,
        );
        const K = slots(s).length;
        const xs = inputs(s, 0x6a0 + s.length);
        const groupCount = GROUPS[0] * GROUPS[1];
        const ks = randomU32(groupCount * 2 + ITEMS * 2, 0x6b1);
        const { accessors } = await runKernel(image, `${M}#groups_${s}`, {
          mode: 'native',
          lowering,
          range: [WG[0] * GROUPS[0], WG[1] * GROUPS[1]],
          accessors: {
            xs,
            ks,
            out: new Uint32Array(ITEMS * K).fill(0x7fc0dead),
            flags: new Uint32Array(ITEMS * QUERIES).fill(0xdeadbeef),
          },
        });
        const flags = new Uint32Array(accessors.flags!);
        // The sub-group size the device chose (the max local range), read back from the kernel.
        const size = lowering === 'workgroup' ? Math.min(32, N) : Math.floor(flags[7]! / 1000);
        const want = expected(s, xs as unknown as ArrayLike<number>, ks, size);
        const got =
          s === 'f32'
            ? new Float32Array(accessors.out!)
            : s === 'i32'
              ? new Int32Array(accessors.out!)
              : new Uint32Array(accessors.out!);
        const list = slots(s);
        const wrong: string[] = [];
        for (let i = 0; i < ITEMS && wrong.length < 10; i++) {
          for (let j = 0; j < K; j++) {
            if (
              !Object.is(got[i * K + j], want.out[i * K + j]) &&
              !(got[i * K + j] === 0 && want.out[i * K + j] === 0)
            ) {
              wrong.push(
                `item ${i} ${JSON.stringify(list[j])}: got ${got[i * K + j]}, want ${want.out[i * K + j]}`,
              );
            }
          }
        }
        expect(wrong).toEqual([]);
        expect([...flags]).toEqual(want.flags);
        if (lowering === 'workgroup') {
          // The interpreter, the oracle of this lowering, gives the same values.
          const { images } = linkSources({ [M]: source(s) });
          const cpu = interpretKernel(images, {
            kernel: `${M}#groups_${s}`,
            range: [WG[0] * GROUPS[0], WG[1] * GROUPS[1]],
            args: {
              xs,
              ks,
              out: new Uint32Array(ITEMS * K).fill(0x7fc0dead),
              flags: new Uint32Array(ITEMS * QUERIES).fill(0xdeadbeef),
            },
          });
          expect(new Uint32Array(cpu.accessors.out!)).toEqual(new Uint32Array(accessors.out!));
          expect(new Uint32Array(cpu.accessors.flags!)).toEqual(flags);
        }
      },
    );
  },
);
