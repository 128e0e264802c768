/**
 * Where the run-time values of the matrix multiply cost: the WGSL the syclts build emitted for
 * matmul.sycl.ts's `matmulArgs` (the size and k step as kernel arguments) and for `matmul` with
 * emulated constants, as emitted and with single changes, beside the hand-written kernel that
 * reads the same values from a uniform (computing n / 4 and the loads per invocation from them as
 * the .sycl.ts source does, and with those two computed on the host) and the literal kernel. All
 * dispatched with the same plain WebGPU calls (no runtime), the group offset off as the runtime's
 * pipeline for one dispatch has it, checked against a float64 reference, and timed in interleaved
 * rounds (every variant once a round, the order rotating) so that clocks and heat fall on all
 * alike. Run:
 *
 *   node matmul-values.mjs [n] [rounds]
 */
import { bindingOf } from '@syclts/dsl';
import { benchDevice, median } from './gpu/device.js';
import { matmulLiteral, matmulUniform } from './gpu/literal-wgsl.js';
import { checkProduct, productBuffers } from './gpu/product-check.js';
import { matmul, matmulArgs } from './kernels/matmul.sycl.ts';

const n = Number(process.argv[2] ?? 4096);
const roundCount = Number(process.argv[3] ?? 15);
const BK = 16;
const bench = await benchDevice();
const { device, timer } = bench;
console.log(`adapter: ${bench.description}`);

/** The emitted WGSL of a kernel with the variant (native or emulated) asked for. */
function emitted(kernel: typeof matmul | typeof matmulArgs, variant: 'native' | 'emulated') {
  const binding = bindingOf(kernel)!;
  const image = binding.program.images.find((im) => im.kernels[binding.symbolicId])!;
  const info = image.kernels[binding.symbolicId]!;
  return {
    code: image.wgsl[variant]!,
    info,
    offsetOverride: image.groupOffsetOverride,
    emulation: image.emulation?.binding,
  };
}
const args = emitted(matmulArgs, 'native');
const emul = emitted(matmul, 'emulated');

const product = productBuffers(device, n);
const { a, b, c } = product;
const uniform = (words: number[], bytes: number) => {
  const buffer = device.createBuffer({
    size: bytes,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(buffer, 0, Uint32Array.from(words));
  return buffer;
};
// Launch records as the runtime writes them: the global range, the group offset (zero), then
// matmulArgs's arguments n and bk.
const range = [n / 8, n / 8, 1, 0, 0, 0, 0, 0];
const argsRecord = uniform([...range, n, BK, 0, 0], 48);
const plainRecord = uniform(range, 32);
const params = uniform([n, BK, n / 4, BK / 8], 16);
// The emulated constants' records: slot 0 holds the size and the k step.
const scBuffer = uniform([n, BK], 64 * 16);

type Slot = { binding: number; buffer: GPUBuffer; type: GPUBufferBindingType };
/** The hand-written kernels' bindings: A, B and C at 0, 1 and 2. */
const handSlots: Slot[] = [
  { binding: 0, buffer: a, type: 'read-only-storage' },
  { binding: 1, buffer: b, type: 'read-only-storage' },
  { binding: 2, buffer: c, type: 'storage' },
];
const slotsOf = (of: typeof args, record: GPUBuffer): Slot[] => [
  ...of.info.bindings.flatMap((bi): Slot[] => {
    if (bi.kind === 'launch') return [{ binding: bi.binding, buffer: record, type: 'uniform' }];
    if (bi.kind !== 'accessor') return [];
    const buffer = { a, b, c }[bi.arg as 'a' | 'b' | 'c'];
    const type = bi.access === 'read' ? 'read-only-storage' : 'storage';
    return [{ binding: bi.binding, buffer, type }];
  }),
  ...(of.emulation === undefined
    ? []
    : [{ binding: of.emulation, buffer: scBuffer, type: 'uniform' as const }]),
];
const offOverride = (o: string | undefined) => (o ? { [o]: 0 } : {});

/** `code` with `edit` applied to the function `name` alone (images hold several kernels). */
function inFunction(code: string, name: string, edit: (fn: string) => string): string {
  const start = code.indexOf(`\nfn ${name}(`);
  const end = code.indexOf('\n}\n', start) + 3;
  if (start < 0 || end < 3) throw new Error(`matmul-values: no function ${name}`);
  return code.slice(0, start) + edit(code.slice(start, end)) + code.slice(end);
}
const argsEntry = args.info.entryPoint;
const argsCode = args.code;
/** The arguments read once into `let`s at the top of the entry point. */
const hoisted = (code: string) =>
  inFunction(code, argsEntry, (fn) =>
    fn
      .replace(/\blaunch_matmulArgs\.(n|bk)\b/g, (_, f: string) => `v_${f}`)
      .replace(
        /(\n {2}let gid = [^\n]*\n)/,
        '$1  let v_n = launch_matmulArgs.n;\n  let v_bk = launch_matmulArgs.bk;\n',
      ),
  );
/** The accumulators declared without an initializer (zero, as the hand-written kernel has them). */
const zeroAcc = (code: string, entry: string) =>
  inFunction(code, entry, (fn) =>
    fn.replace(
      /var acc: array<vec4<f32>, 16> = array<vec4<f32>, 16>\([^;]*\);/,
      'var acc: array<vec4<f32>, 16>;',
    ),
  );
/** n / 4 and the loads per invocation read from the record, as the host-computed uniform has them. */
const precomputed = (code: string) =>
  inFunction(
    code.replace(
      /(struct Launch_matmulArgs \{[^}]*\n {2}bk: u32,\n)/,
      '$1  n4: u32,\n  loads: u32,\n',
    ),
    argsEntry,
    (fn) =>
      fn
        .replace(/let n4: u32 = [^;]*;/, 'let n4: u32 = launch_matmulArgs.n4;')
        .replace(/let loads: u32 = [^;]*;/, 'let loads: u32 = launch_matmulArgs.loads;'),
  );
const argsRecordFull = uniform([...range, n, BK, n / 4, BK / 8], 48);
/** `edited`, which must differ from `code` (a pattern that no longer matches is an error). */
function changed(code: string, edited: string, what: string): string {
  if (edited === code) throw new Error(`matmul-values: ${what} changed nothing`);
  return edited;
}

interface Variant {
  readonly name: string;
  readonly code: string;
  readonly entryPoint: string;
  readonly slots: Slot[];
  readonly constants?: Record<string, number>;
}
const hand = (name: string, code: string, withParams: boolean): Variant => ({
  name,
  code,
  entryPoint: 'main',
  slots: [
    ...handSlots,
    ...(withParams ? [{ binding: 3, buffer: params, type: 'uniform' as const }] : []),
  ],
});
const sycltsArgs = (name: string, code: string, record = argsRecord): Variant => ({
  name,
  code,
  entryPoint: args.info.entryPoint,
  slots: slotsOf(args, record),
  constants: offOverride(args.offsetOverride),
});
const variants: Variant[] = [
  hand('literal', matmulLiteral(n, BK), false),
  hand('hand-written uniform', matmulUniform(n, BK, 'in the kernel'), true),
  hand(
    'hand-written uniform, n / 4 and the loads computed on the host',
    matmulUniform(n, BK, 'on the host'),
    true,
  ),
  sycltsArgs('syclts arguments as emitted', argsCode),
  sycltsArgs(
    'syclts arguments, read once into lets',
    changed(argsCode, hoisted(argsCode), 'hoisting'),
  ),
  sycltsArgs(
    'syclts arguments, accumulators zero-declared',
    changed(argsCode, zeroAcc(argsCode, argsEntry), 'zeroAcc'),
  ),
  sycltsArgs(
    'syclts arguments, n / 4 and the loads from the record',
    changed(argsCode, precomputed(argsCode), 'precomputed'),
    argsRecordFull,
  ),
  {
    name: 'syclts emulated as emitted',
    code: emul.code,
    entryPoint: emul.info.entryPoint,
    slots: slotsOf(emul, plainRecord),
    constants: offOverride(emul.offsetOverride),
  },
  {
    name: 'syclts emulated, accumulators zero-declared',
    code: changed(emul.code, zeroAcc(emul.code, emul.info.entryPoint), 'zeroAcc'),
    entryPoint: emul.info.entryPoint,
    slots: slotsOf(emul, plainRecord),
    constants: offOverride(emul.offsetOverride),
  },
];

interface Ready {
  readonly variant: Variant;
  readonly dispatch: () => void;
  readonly error: number;
  readonly us: number[];
}
const ready: Ready[] = [];
for (const v of variants) {
  const layout = device.createBindGroupLayout({
    entries: v.slots.map((s) => ({
      binding: s.binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type: s.type },
    })),
  });
  device.pushErrorScope('validation');
  const pipeline = await device.createComputePipelineAsync({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: {
      module: device.createShaderModule({ code: v.code }),
      entryPoint: v.entryPoint,
      ...(v.constants ? { constants: v.constants } : {}),
    },
  });
  const error = await device.popErrorScope();
  if (error) throw new Error(`${v.name}: ${error.message}`);
  const bindGroup = device.createBindGroup({
    layout,
    entries: v.slots.map((s) => ({ binding: s.binding, resource: { buffer: s.buffer } })),
  });
  const dispatch = () => {
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(n / 128, n / 128);
    pass.end();
    device.queue.submit([encoder.finish()]);
  };
  const maxError = await checkProduct(device, product, dispatch, v.name);
  ready.push({ variant: v, dispatch, error: maxError, us: [] });
}

const warm = performance.now() + 500;
while (performance.now() < warm) {
  for (const r of ready) r.dispatch();
  await device.queue.onSubmittedWorkDone();
}
for (let round = 0; round < roundCount; round++) {
  for (let k = 0; k < ready.length; k++) {
    const r = ready[(round + k) % ready.length]!;
    timer.arm();
    for (let i = 0; i < 5; i++) r.dispatch();
    r.us.push(...(await timer.collect()));
  }
}
const base = median(ready.find((r) => r.variant.name === 'hand-written uniform')!.us);
const lit = median(ready[0]!.us);
console.log(
  `\nn = ${n}, ${roundCount} rounds of 5 dispatches each\n| WGSL | median µs | x literal | x hand-written uniform | TFLOP/s | max rel. error |\n| --- | ---: | ---: | ---: | ---: | ---: |`,
);
for (const r of ready) {
  const t = median(r.us);
  console.log(
    `| ${r.variant.name} | ${t.toFixed(1)} | ${(t / lit).toFixed(3)} | ${(t / base).toFixed(3)} | ${((2 * n ** 3) / t / 1e6).toFixed(2)} | ${r.error.toExponential(1)} |`,
  );
}
process.exit(0);
