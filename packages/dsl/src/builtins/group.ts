/**
 * SYCL 2020's group algorithms (4.17.4) and sub-group functions, for nd-range kernels: each
 * takes the group it works over, `item.getGroup()` (the work-group) or `item.getSubGroup()`,
 * and every item of that group must call it (the build checks the control flow is uniform).
 * The compiler lowers them to WGSL `subgroups` built-ins where the device has them and to
 * workgroup memory where not (both variants come from one build). On the host they throw.
 */
import type { Dimensions } from '../declarations/kernel.js';
import type { Group, SubGroup } from '../device/kernel-scope.js';
import type { DeviceArray, Vec } from '../device/values.js';

/** SYCL's function objects, by the names group algorithms take. */
export const GROUP_OPERATORS = [
  'plus',
  'multiplies',
  'minimum',
  'maximum',
  'bitAnd',
  'bitOr',
  'bitXor',
  'logicalAnd',
  'logicalOr',
] as const;
export type GroupOperatorName = (typeof GROUP_OPERATORS)[number];

/** A SYCL function object (`sycl::plus<>`, ...), passed to a group algorithm. */
export interface GroupOperator<N extends GroupOperatorName = GroupOperatorName> {
  readonly kind: 'groupOperator';
  readonly name: N;
}

const operator = <N extends GroupOperatorName>(name: N): GroupOperator<N> =>
  Object.freeze({ kind: 'groupOperator', name });

/** `x + y` (identity 0). */
export const plus = operator('plus');
/** `x * y` (identity 1). */
export const multiplies = operator('multiplies');
/** `min(x, y)` (identity: the type's largest value, +Infinity for f32). */
export const minimum = operator('minimum');
/** `max(x, y)` (identity: the type's smallest value, -Infinity for f32). */
export const maximum = operator('maximum');
/** `x & y` on integers (identity: all bits set). */
export const bitAnd = operator('bitAnd');
/** `x | y` on integers (identity 0). */
export const bitOr = operator('bitOr');
/** `x ^ y` on integers (identity 0). */
export const bitXor = operator('bitXor');
/** `x && y` on bool (identity true). */
export const logicalAnd = operator('logicalAnd');
/** `x || y` on bool (identity false). */
export const logicalOr = operator('logicalOr');

/** The group functions the compiler knows, by their DSL names. */
export const GROUP_FUNCTIONS = [
  'reduceOverGroup',
  'exclusiveScanOverGroup',
  'inclusiveScanOverGroup',
  'groupBroadcast',
  'anyOfGroup',
  'allOfGroup',
  'noneOfGroup',
  'shiftGroupLeft',
  'shiftGroupRight',
  'permuteGroupByXor',
  'selectFromGroup',
  'groupBarrier',
  'jointReduce',
  'jointExclusiveScan',
  'jointInclusiveScan',
  'jointAnyOf',
  'jointAllOf',
  'jointNoneOf',
] as const;
export type GroupFunctionName = (typeof GROUP_FUNCTIONS)[number];

/** A work-group or a sub-group. */
export type AnyGroup = Group<Dimensions> | SubGroup;

/** What group algorithms combine: i32, u32 and f32 scalars and vectors (bool for the logical operators). */
export type GroupValue = number | boolean | Vec<'f32' | 'i32' | 'u32'>;

function deviceOnly(name: string): never {
  throw new Error(`${name} is device code: call it inside an nd-range kernel`);
}
const groupFunction = (name: GroupFunctionName) => (() => deviceOnly(name)) as never;

/**
 * The combination of every item's `x` by `op` (with `init` first when given), the same in every
 * item of the group.
 */
export const reduceOverGroup: {
  <T extends GroupValue>(g: AnyGroup, x: T, op: GroupOperator): T;
  <T extends GroupValue>(g: AnyGroup, x: T, init: T, op: GroupOperator): T;
} = groupFunction('reduceOverGroup');

/** The combination of `x` over the items before this one (the identity, or `init`, in the first). */
export const exclusiveScanOverGroup: {
  <T extends GroupValue>(g: AnyGroup, x: T, op: GroupOperator): T;
  <T extends GroupValue>(g: AnyGroup, x: T, init: T, op: GroupOperator): T;
} = groupFunction('exclusiveScanOverGroup');

/** The combination of `x` over the items up to and including this one (`init` first when given). */
export const inclusiveScanOverGroup: {
  <T extends GroupValue>(g: AnyGroup, x: T, op: GroupOperator): T;
  <T extends GroupValue>(g: AnyGroup, x: T, op: GroupOperator, init: T): T;
} = groupFunction('inclusiveScanOverGroup');

/** `x` of the item whose local linear id is `localLinearId` (the group's leader by default). */
export const groupBroadcast: <T extends GroupValue>(
  g: AnyGroup,
  x: T,
  localLinearId?: number,
) => T = groupFunction('groupBroadcast');

/** Whether `predicate` holds in some item of the group. */
export const anyOfGroup: (g: AnyGroup, predicate: boolean) => boolean = groupFunction('anyOfGroup');
/** Whether `predicate` holds in every item of the group. */
export const allOfGroup: (g: AnyGroup, predicate: boolean) => boolean = groupFunction('allOfGroup');
/** Whether `predicate` holds in no item of the group. */
export const noneOfGroup: (g: AnyGroup, predicate: boolean) => boolean =
  groupFunction('noneOfGroup');

/**
 * `x` of the item `delta` places after this one in the sub-group; where there is none, this
 * item's own `x` (SYCL leaves it unspecified).
 */
export const shiftGroupLeft: <T extends GroupValue>(g: SubGroup, x: T, delta?: number) => T =
  groupFunction('shiftGroupLeft');
/** `x` of the item `delta` places before this one; where there is none, this item's own `x`. */
export const shiftGroupRight: <T extends GroupValue>(g: SubGroup, x: T, delta?: number) => T =
  groupFunction('shiftGroupRight');
/** `x` of the item whose local id is this one's xor `mask`; where there is none, this item's own `x`. */
export const permuteGroupByXor: <T extends GroupValue>(g: SubGroup, x: T, mask: number) => T =
  groupFunction('permuteGroupByXor');
/** `x` of the item whose local id is `id`; where there is none, this item's own `x`. */
export const selectFromGroup: <T extends GroupValue>(g: SubGroup, x: T, id: number) => T =
  groupFunction('selectFromGroup');

/** Waits until every item of the work-group arrives (SYCL's `group_barrier`). */
export const groupBarrier: (g: Group<Dimensions>) => void = groupFunction('groupBarrier');

/**
 * The comparisons the joint predicates (`jointAnyOf`, `jointAllOf`, `jointNoneOf`) apply to each
 * element: `element <op> value`.
 */
export const JOINT_COMPARISONS = ['==', '!=', '<', '<=', '>', '>='] as const;
export type JointComparison = (typeof JOINT_COMPARISONS)[number];

/** A kernel's workgroup array (`local.name`), as the joint group algorithms take it. */
export type JointArray<T extends GroupValue> = DeviceArray<T>;

/**
 * SYCL's `joint_reduce` over a workgroup array: every element of `array` combined by `op` (after
 * `init` when given), the same in every item of the work-group.
 */
export const jointReduce: {
  <T extends GroupValue>(g: Group<Dimensions>, array: JointArray<T>, op: GroupOperator): T;
  <T extends GroupValue>(g: Group<Dimensions>, array: JointArray<T>, init: T, op: GroupOperator): T;
} = groupFunction('jointReduce');

/**
 * SYCL's `joint_exclusive_scan`: writes to `output[i]` the combination of `input[0..i)` (the
 * identity, or `init`, at 0). `output` has `input`'s element type and length, or is `input`.
 */
export const jointExclusiveScan: {
  <T extends GroupValue>(
    g: Group<Dimensions>,
    input: JointArray<T>,
    output: JointArray<T>,
    op: GroupOperator,
  ): void;
  <T extends GroupValue>(
    g: Group<Dimensions>,
    input: JointArray<T>,
    output: JointArray<T>,
    init: T,
    op: GroupOperator,
  ): void;
} = groupFunction('jointExclusiveScan');

/**
 * SYCL's `joint_inclusive_scan`: writes to `output[i]` the combination of `input[0..i]` (`init`
 * first when given). `output` has `input`'s element type and length, or is `input`.
 */
export const jointInclusiveScan: {
  <T extends GroupValue>(
    g: Group<Dimensions>,
    input: JointArray<T>,
    output: JointArray<T>,
    op: GroupOperator,
  ): void;
  <T extends GroupValue>(
    g: Group<Dimensions>,
    input: JointArray<T>,
    output: JointArray<T>,
    op: GroupOperator,
    init: T,
  ): void;
} = groupFunction('jointInclusiveScan');

/**
 * A joint predicate (SYCL's `joint_any_of`, ...): over a bool array, its elements; over an i32,
 * u32 or f32 array, `element <comparison> value` for each element.
 */
export type JointPredicate = {
  (g: Group<Dimensions>, flags: JointArray<boolean>): boolean;
  (
    g: Group<Dimensions>,
    array: JointArray<number>,
    comparison: JointComparison,
    value: number,
  ): boolean;
};

/** Whether the predicate holds for some element of the array (false when it is empty). */
export const jointAnyOf: JointPredicate = groupFunction('jointAnyOf');
/** Whether the predicate holds for every element of the array. */
export const jointAllOf: JointPredicate = groupFunction('jointAllOf');
/** Whether the predicate holds for no element of the array. */
export const jointNoneOf: JointPredicate = groupFunction('jointNoneOf');
