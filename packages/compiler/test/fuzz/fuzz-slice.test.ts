/**
 * The CI slice of `npm run fuzz`: 10,000 generated inputs of a fresh seed (printed; replay it
 * with `npm run fuzz -- --seed S --count 10000 --quick`), hostile ones included, built in
 * worker processes and checked on Dawn. No input may crash the compiler (a thrown exception,
 * an internal error, a dead or hung process) and no program that builds may be refused by Dawn.
 */
import { expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { runPool } from './pool.js';
import { reproducerText } from './reproducer.js';
import { type Finding, Tally } from './tally.js';

const COUNT = 10_000;

/**
 * Signatures of defects that are known and being fixed, each with a reproducer (the body of a
 * kernel with `out: accessor(u32, 'write')`, `inp: accessor(u32, 'read')` and `i` its id, unless
 * it says otherwise); findings with these signatures do not fail the slice. Entries marked
 * "new" are defects this fuzzer found beyond the known list. Remove an entry when its fix lands.
 */
const KNOWN_SIGNATURES: readonly string[] = [
  // known: a barrier under a non-uniform condition builds; nd-range kernel,
  // `if (inp[i]! > 3) { item.barrier(); }`
  "rejected: shader module: '_' must only be called from uniform control flow",
  // known: deep nesting builds and Dawn's parser gives up; 1,000 nested blocks `{{{ ... }}}`
  'rejected: shader module: maximum parser recursive depth reached',
  // known (nesting; Dawn's limit for nested statements is 127): 200 nested
  // `if (i > 0) { ... }`
  'rejected: shader module: statement nesting depth / chaining length exceeds limit of N',
  // known: `select` (or `?:`) over structs or arrays;
  // `out[0] = select(S({ a: 1, b: 2 }), S({ a: 3, b: 4 }), i > 0).a;`
  "rejected: shader module: no matching call to '_'",
  // known: workgroup sizes over WebGPU's default limits; `ndRange: 3, workgroupSize: [2, 4, 64]`
  'rejected: pipeline: The total number of workgroup invocations (N) exceeds the maximum allowed (N).',
  // known: `ndRange: 1, workgroupSize: [257]`
  'rejected: pipeline: Entry-point uses workgroup_size(N, N, N) that exceeds the maximum allowed',
  // known: workgroup storage over the default limit; `local: { w: workgroupArray(u32, 16385) }`
  'rejected: pipeline: The total use of workgroup storage (N bytes) is larger than the maximum',
  // known: `local: { w: workgroupArray(u32, 65536) }`
  'rejected: shader module: array count (N) must be less than N',
  // known: `local: { w: workgroupArray(u32, 2147483648) }`
  'rejected: shader module: array byte size (N) must not exceed N bytes',
  // known (new, not the compiler's): on a loaded machine SwiftShader has taken over 20 s to
  // create the pipeline of a kernel with a 16 KiB workgroup array, `workgroupArray(u32, 4096)`
  'crash: Dawn hangs: no answer within the time limit',
  // known: a module path with a line break (or U+2028) escapes its WGSL comment;
  // module 'fuzz/a\r\nfn evil() {}\n//.sycl.ts' or 'fuzz/a\u2028b.sycl.ts'
  "rejected: shader module: redeclaration of '_'",
  "rejected: shader module: expected '_' for struct declaration",
  'rejected: shader module: unexpected token',
  // known: a void device function reading a specialization constant, called as a statement,
  // loses its launch-slot argument in the emulated variant; `touch(kh, i);` where
  // `touch = deviceFunction({ args: [kernelHandler, u32] }, (h, x) => { G.value[0] = x + h.getSpecializationConstant(sc); })`
  "rejected: shader module: too few arguments in call to '_', expected N, got N",
  // known: overflowing constant expressions; `out[0] = u32(f32(3.4e38) * 2 + f32(i));`
  "rejected: shader module: '_' cannot be represented as '_'",
  // known: `clamp` with constant low > high; `out[0] = clamp(i, 5, 2);`
  "rejected: shader module: clamp called with '_' (N) greater than '_' (N)",
  // known: names on Object.prototype; `out[0] = u32(Math.valueOf(f32(i)));`
  "crash: SYCL1000: internal compiler error: Cannot read properties of undefined (reading '_')",
  // known: a kernel argument named `constructor`; `args: { out: accessor(u32, 'write'), constructor: u32 }`
  'crash: throws TypeError at emit/print/code.ts: text.startsWith is not a function',
  // known: `out[0] = u32(item.constructor(0));` prints `undefined` into the WGSL
  "rejected: shader module: unresolved value '_'",
  // known: sizes past WebGPU's limits (huge device globals); `deviceGlobal(array(u32, 4294967297))`
  "rejected: shader module: value N cannot be represented as '_'",
  // known (new, like the workgroup array whose size overflows u32):
  // `deviceGlobal(array(f32, 2 ** 128))` is SYCL1000, "literal 3.4e38 is not a u32"
  "crash: SYCL1000: internal compiler error: invalid IR: kernel '_': literal N is not a u32",
  // known (new, for the depth guard): a sum of 1,000 to 2,000 terms `out[0] = i + i + ... + i;`
  // passes the front end's guard and overflows the stack in the pipeline-constants transform
  'crash: throws RangeError at emit/transforms/pipeline-constants.ts: Maximum call stack size',
  // known (new, for the namer's escaping): a module path with a NUL character, 'fuzz/a\u0000b.sycl.ts'
  "crash: throws TypeError at emit/print/line-origins.ts: Cannot read properties of undefined (reading '_')",
  // known (new, for the number model): an f16 constant reaches the WGSL without `enable f16`;
  // `out[0] = u32(f16(-65504));`, emulated constants
  "rejected: shader module: '_' type used without '_' extension enabled",
  // known (new, for the number model): an f16 constant past f16's range is not refused;
  // `out[0] = u32(f16(65505));`
  "rejected: shader module: value cannot be represented as '_'",
];

test(`${COUNT} fuzz inputs: no crash, and Dawn accepts every program that builds`, {
  timeout: 900_000,
}, async () => {
  const seed = randomU32(1, 0xf022)[0]!;
  console.log(
    `[fuzz] seed ${seed}: replay with npm run fuzz -- --seed ${seed} --count ${COUNT} --quick`,
  );
  const tally = new Tally(seed, 'quick');
  await runPool({
    seed,
    size: 'quick',
    first: 0,
    count: COUNT,
    jobs: 2,
    timeoutMs: 60_000,
    onReply: (reply, ms) => tally.add(reply, ms),
  });
  const findings = [...tally.findings.values()];
  const known = (f: Finding) =>
    KNOWN_SIGNATURES.some((k) => `${f.kind}: ${f.signature}`.startsWith(k));
  console.log(
    `[fuzz] ${tally.inputs} inputs: ${tally.built} built (${tally.pipelines} pipelines), ${tally.refused} refused, ${tally.count('crash')} crashes, ${tally.count('rejected')} rejected; known: ${findings
      .filter(known)
      .map((f) => `${f.count}x ${f.signature}`)
      .join('; ')}`,
  );
  expect(tally.inputs).toBe(COUNT);
  // Some of each: a generator that stopped building or stopped being refused tests nothing.
  expect(tally.built).toBeGreaterThan(COUNT / 5);
  expect(tally.refused).toBeGreaterThan(COUNT / 10);
  const fresh = findings.filter((f) => !known(f));
  expect(fresh.map((f) => reproducerText(seed, 'quick', f))).toEqual([]);
});
