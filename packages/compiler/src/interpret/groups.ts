/**
 * Group functions on the CPU: every item of a work-group gives its arguments, and each gets its
 * result, by SYCL's definitions. Sub-groups are the workgroup lowering's (runs of the kernel's
 * required size, else min(32, N), in local linear order), so the interpreter is the oracle of that
 * lowering; a device's own sub-groups may be of another size. Combinations run in item order:
 * integers are exact either way, floats may round otherwise than a device's order.
 */
import type { DataType, GroupOperatorName, JointComparison, SymbolicId } from '@syclts/dsl';
import { scalarOf } from '../builtins/evaluate.js';
import { groupIdentity } from '../builtins/group-identity.js';
import type { Expr, UpdateStmt } from '../ir/device-code.js';
import { builtinFunction } from './builtins.js';
import { binaryScalar } from './numbers.js';
import { type Scalar, toScalar, type Value } from './values.js';

/** What an item gives a group function: its arguments' values, in order. */
export type GroupCall =
  | Extract<Expr<SymbolicId>, { op: 'group' }>
  | Extract<UpdateStmt<SymbolicId>, { kind: 'jointScan' }>;

/**
 * Each item's result of `call`, `args[i]` being item i's arguments (items in local linear
 * order), `subGroup` the sub-group size. A joint scan's result is the output array's contents.
 */
export function groupResults(
  call: GroupCall,
  args: readonly (readonly Value[])[],
  subGroup: number,
): Value[] {
  if ('kind' in call) {
    const [input, init] = args[0]!;
    const items = input as Value[];
    const type = call.input.type.kind === 'array' ? call.input.type.element : call.input.type;
    const out = scan(call.operator, type, items, init ?? null, call.fn === 'inclusiveScan');
    return args.map(() => out);
  }
  const n = args.length;
  const members = (i: number): number[] => {
    if (call.scope === 'workgroup') return Array.from({ length: n }, (_, k) => k);
    const base = i - (i % subGroup);
    return Array.from({ length: Math.min(subGroup, n - base) }, (_, k) => base + k);
  };
  return args.map((own, i) => itemResult(call, args, own, members(i), i));
}

/** Item `i`'s result, `group` its group's members (item indices in local linear order). */
function itemResult(
  call: Extract<GroupCall, { op: 'group' }>,
  args: readonly (readonly Value[])[],
  own: readonly Value[],
  group: readonly number[],
  i: number,
): Value {
  const at = group.indexOf(i);
  const x = (k: number) => args[group[k]!]![0]!;
  const [value, extra] = own as [Value, Value | undefined];
  const pick = (k: number, ok: boolean) => (ok ? x(k) : value);
  switch (call.fn) {
    case 'reduce':
    case 'exclusiveScan':
    case 'inclusiveScan': {
      const upto = call.fn === 'reduce' ? group.length : call.fn === 'exclusiveScan' ? at : at + 1;
      const items = Array.from({ length: upto }, (_, k) => x(k));
      return fold(call.operator!, call.type, items, extra ?? null);
    }
    case 'broadcast':
      // A work-group's broadcast gives every item one value: past the group, the last item's.
      if (call.scope === 'workgroup') return x(Math.min(extra as number, group.length - 1));
      return pick(extra as number, (extra as number) < group.length);
    case 'select': {
      const k = extra as number;
      return pick(k, k < group.length);
    }
    case 'shiftLeft': {
      const d = extra as number;
      return pick(at + d, d < group.length - at);
    }
    case 'shiftRight': {
      const d = extra as number;
      return pick(at - d, d <= at);
    }
    case 'permuteXor': {
      const j = (at ^ (extra as number)) >>> 0;
      return pick(j, j < group.length);
    }
    case 'any':
    case 'all':
    case 'none': {
      const flags = group.map((_, k) => x(k) as boolean);
      const any = flags.some(Boolean);
      return call.fn === 'any' ? any : call.fn === 'all' ? flags.every(Boolean) : !any;
    }
    case 'jointReduce':
      return fold(call.operator!, call.type, value as Value[], extra ?? null);
    case 'jointAny':
    case 'jointAll':
    case 'jointNone': {
      const element = call.args[0]!.type.kind === 'array' ? call.args[0]!.type.element : call.type;
      const flags = (value as Value[]).map((e) =>
        call.comparison ? compare(call.comparison, element, e, extra!) : (e as boolean),
      );
      const any = flags.some(Boolean);
      return call.fn === 'jointAny' ? any : call.fn === 'jointAll' ? flags.every(Boolean) : !any;
    }
  }
}

/** `init` (or the first item), then each item combined in order; the identity for none. */
function fold(
  op: GroupOperatorName,
  type: DataType,
  items: readonly Value[],
  init: Value | null,
): Value {
  let acc: Value | null = init;
  for (const v of items) acc = acc === null ? v : combine(op, type, acc, v);
  return acc ?? identity(op, type);
}

function scan(
  op: GroupOperatorName,
  type: DataType,
  items: readonly Value[],
  init: Value | null,
  inclusive: boolean,
): Value[] {
  return items.map((_, i) => fold(op, type, items.slice(0, inclusive ? i + 1 : i), init));
}

function combine(op: GroupOperatorName, type: DataType, a: Value, b: Value): Value {
  if (op === 'minimum' || op === 'maximum') {
    return builtinFunction(op === 'minimum' ? 'min' : 'max')!([a, b], [type, type], type);
  }
  const operator = (
    {
      plus: '+',
      multiplies: '*',
      bitAnd: '&',
      bitOr: '|',
      bitXor: '^',
      logicalAnd: '&&',
      logicalOr: '||',
    } as const
  )[op];
  const s = scalarOf(type);
  if (!Array.isArray(a)) return binaryScalar(operator, s, a as Scalar, b as Scalar);
  return a.map((x, i) => binaryScalar(operator, s, x as Scalar, (b as Value[])[i] as Scalar));
}

function identity(op: GroupOperatorName, type: DataType): Value {
  const s = scalarOf(type);
  const v = groupIdentity(op, s);
  const scalar = typeof v === 'boolean' ? v : toScalar(s, v);
  return type.kind === 'vector' ? Array.from({ length: type.size }, () => scalar) : scalar;
}

function compare(c: JointComparison, type: DataType, a: Value, b: Value): boolean {
  return binaryScalar(c, scalarOf(type), a as Scalar, b as Scalar) as boolean;
}
