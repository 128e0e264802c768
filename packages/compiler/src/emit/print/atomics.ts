/**
 * `atomic(f32)`, which WGSL does not have (Tint refuses `atomic<f32>`): it is declared as an
 * `atomic<u32>` holding the f32's bits, wherever it lives (accessor elements, device globals,
 * workgroup arrays, struct members), so its layout is the u32's and the host reads and writes
 * f32 values through the ABI. Its operations are printed here:
 *
 * - `atomicLoad`, `atomicStore`, `atomicExchange`: the u32 operation between bitcasts;
 * - `atomicCompareExchangeWeak`: the u32 operation on the bits of the comparand, so -0 and +0
 *   differ and a NaN equals only the same bits, as SYCL's `compare_exchange` compares the
 *   object representation; a helper gives the result back as f32;
 * - `atomicAdd`, `atomicSub`, `atomicMin`, `atomicMax`: a helper that loads the bits, computes
 *   the new value and stores it with `atomicCompareExchangeWeak`, again until no other item
 *   changed the word in between (the loop compares bits, so a NaN in the word cannot stall it).
 *
 * min and max order -0 below +0 and ignore a NaN operand (the word is left as it is); a NaN in
 * the word is replaced by a number, as IEEE 754's minimumNumber and maximumNumber do. They
 * compare the bits as integers (sign-magnitude made monotonic), so no float comparison a driver
 * may relax under WGSL's finite-math allowance decides the result.
 *
 * Each helper is printed once per WGSL module, function and address space that uses it, and
 * takes the atomic by pointer (WGSL's `unrestricted_pointer_parameters`).
 */
import type { AtomicFunction, Expr } from '../../ir/device-code.js';

/** Where an atomic lives: the WGSL address space of its pointer. */
export type AtomicSpace = 'storage' | 'workgroup';

/** The f32 operations printed as a helper function. */
export type F32AtomicHelper = Extract<
  AtomicFunction,
  'atomicAdd' | 'atomicSub' | 'atomicMin' | 'atomicMax' | 'atomicCompareExchangeWeak'
>;

const HELPER_FUNCTIONS: ReadonlySet<AtomicFunction> = new Set<F32AtomicHelper>([
  'atomicAdd',
  'atomicSub',
  'atomicMin',
  'atomicMax',
  'atomicCompareExchangeWeak',
]);

/** Whether the f32 operation `fn` is a helper's (the rest are bitcasts around the u32 one). */
export function isF32Helper(fn: AtomicFunction): fn is F32AtomicHelper {
  return HELPER_FUNCTIONS.has(fn);
}

/** Whether `pointer` is an `atomic(f32)`. */
export function isF32Atomic(pointer: Expr<unknown>): boolean {
  return pointer.type.kind === 'atomic' && pointer.type.scalar === 'f32';
}

/** The address space of an atomic place: workgroup arrays, or storage (accessors, device globals). */
export function atomicSpace(pointer: Expr<unknown>): AtomicSpace {
  let root = pointer;
  while (root.op === 'index' || root.op === 'member') root = root.base;
  return root.op === 'workgroupArray' ? 'workgroup' : 'storage';
}

/** The WGSL type of a pointer to the bits of an `atomic(f32)` in `space`. */
function pointerType(space: AtomicSpace): string {
  return space === 'storage'
    ? 'ptr<storage, atomic<u32>, read_write>'
    : 'ptr<workgroup, atomic<u32>>';
}

/** The monotonic key of f32 bits `b`: -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN. */
const key = (b: string) => `select(${b} | 0x80000000u, ~${b}, ${b} >= 0x80000000u)`;

/** Whether f32 bits `b` are a NaN. */
const isNan = (b: string) => `(${b} & 0x7fffffffu) > 0x7f800000u`;

/**
 * The text of helper `name` for `fn` on an `atomic(f32)` in `space`; `result` is the WGSL
 * struct `atomicCompareExchangeWeak` gives (`old_value: f32, exchanged: bool`).
 */
export function f32AtomicHelper(
  fn: F32AtomicHelper,
  name: string,
  space: AtomicSpace,
  result: string,
): string {
  const p = pointerType(space);
  const retry = [
    '    let r = atomicCompareExchangeWeak(p, old, next);',
    '    if (r.exchanged) { return bitcast<f32>(old); }',
    '    old = r.old_value;',
    '  }',
    '}',
  ];
  switch (fn) {
    case 'atomicAdd':
    case 'atomicSub':
      return [
        `fn ${name}(p: ${p}, v: f32) -> f32 {`,
        '  var old = atomicLoad(p);',
        '  loop {',
        `    let next = bitcast<u32>(bitcast<f32>(old) ${fn === 'atomicAdd' ? '+' : '-'} v);`,
        ...retry,
      ].join('\n');
    case 'atomicMin':
    case 'atomicMax':
      // A NaN operand leaves the word; a number replaces a NaN word, or one it is below (min)
      // or above (max).
      return [
        `fn ${name}(p: ${p}, v: f32) -> f32 {`,
        '  let next = bitcast<u32>(v);',
        `  if (${isNan('next')}) { return bitcast<f32>(atomicLoad(p)); }`,
        `  let vk = ${key('next')};`,
        '  var old = atomicLoad(p);',
        '  loop {',
        `    let keep = !(${isNan('old')}) && ${key('old')} ${fn === 'atomicMin' ? '<=' : '>='} vk;`,
        '    if (keep) { return bitcast<f32>(old); }',
        ...retry,
      ].join('\n');
    case 'atomicCompareExchangeWeak':
      return [
        `fn ${name}(p: ${p}, c: f32, v: f32) -> ${result} {`,
        '  let r = atomicCompareExchangeWeak(p, bitcast<u32>(c), bitcast<u32>(v));',
        `  return ${result}(bitcast<f32>(r.old_value), r.exchanged);`,
        '}',
      ].join('\n');
  }
}
