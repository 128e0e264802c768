/**
 * Where the 3x3 convolution's run-time value paths lose time: the WGSL syclts generates for
 * `conv3x3` (emulated constants) and `conv3x3Args` (kernel arguments), as printed and with one
 * thing changed at a time (and as the runtime runs it for a large launch: the pipeline made with the
 * image's launch-slot override false), against hand-written WGSL with literal values and with the values in
 * a plain uniform. Every variant is dispatched with plain WebGPU calls and timed per pass (all
 * repetitions of a round in one submission, per-pass timestamps), the variants interleaved round
 * by round; each output is checked against the literal kernel's first. One process, 4096 x 4096.
 *
 *   node conv-variants.mjs [size] [rounds]
 */
import { bindingOf } from '@syclts/dsl';
import { benchDevice, median } from './gpu/device.js';
import { CONV_COEFFS } from './gpu/kernel-speed.js';
import { convLiteral, convUniform, convUniformRecord } from './gpu/literal-wgsl.js';
import { timePasses } from './gpu/pass-timing.js';
import { conv3x3 } from './kernels/conv.sycl.ts';

const n = Number(process.argv[2] ?? 4096);
const rounds = Number(process.argv[3] ?? 5);
const { device, description } = await benchDevice();
console.log(`adapter: ${description}`);

const binding = bindingOf(conv3x3)!;
const image = binding.program.images.find((i) => i.kernels[binding.symbolicId])!;
const emulatedWgsl = image.wgsl.emulated!;

/** Uniform data of the launch records: slot mode 0, group offset 0 (docs/device-images.md). */
const launchRecord = new ArrayBuffer(32);
new Uint32Array(launchRecord).set([n, n, 1, 0, 0, 0, 0, 0]);
/** conv3x3Args's 64 launch records (96 bytes each), the first one filled. */
const argsRecords = new ArrayBuffer(64 * 96);
{
  const u = new Uint32Array(argsRecords);
  const f = new Float32Array(argsRecords);
  u.set([n, n, 1, 0, 0, 0, 0, 0]);
  for (let dy = 0; dy < 3; dy++) {
    for (let dx = 0; dx < 3; dx++) f[8 + dy * 4 + dx] = CONV_COEFFS[dy * 3 + dx]!;
  }
  u[20] = n;
  u[21] = n;
}
/** The emulation buffer (64 records of 48 bytes), record 0: coefficients @0, width @36, height @40. */
const scRecord = new ArrayBuffer(64 * 48);
new Float32Array(scRecord).set(CONV_COEFFS);
new Uint32Array(scRecord).set([n, n], 9);
const replace = (code: string, from: string | RegExp, to: string): string => {
  const out = code.replace(from, to);
  if (out === code) throw new Error(`conv-variants: ${String(from)} not found in the WGSL`);
  return out;
};
const slotBlock = (launch: string) =>
  new RegExp(
    `var slot = 0u;\\n\\s*if \\((?:\\w+ && )?${launch.replace(/[[\]]/g, '\\$&')}\\.slot_mode != 0u\\) \\{[\\s\\S]*?workgroupUniformLoad\\(&launch_slot\\);\\n\\s*\\}`,
  );
const noSlot = (code: string, launch: string) => replace(code, slotBlock(launch), 'let slot = 0u;');
/**
 * The kernel's body as a function of the slot, called with the slot taken when `slot_mode` is
 * set and with 0u otherwise: the second call is the body with every record index a constant.
 */
function twoPaths(code: string, entry: string, launch: string): string {
  const start = code.indexOf(`@compute @workgroup_size(64u, 4u, 1u)\nfn ${entry}(`);
  const end = code.indexOf('\n}\n', start) + 3;
  const text = code.slice(start, end);
  const block = text.match(slotBlock(launch))!;
  const rest = text.slice(block.index! + block[0].length, text.length - 2);
  const params = 'wgid: vec3<u32>, lid: vec3<u32>, lindex: u32';
  const body = `${entry}_body`;
  const replaced = `fn ${body}(slot: u32, ${params}) {${rest}}

@compute @workgroup_size(64u, 4u, 1u)
fn ${entry}(
  @builtin(workgroup_id) wgid: vec3<u32>,
  @builtin(local_invocation_id) lid: vec3<u32>,
  @builtin(local_invocation_index) lindex: u32,
) {
  if (${launch}.slot_mode != 0u) {
    if (lindex == 0u) {
      launch_slot = launch_slots.table[atomicAdd(&launch_slots.next, 1u)];
    }
    ${body}(workgroupUniformLoad(&launch_slot), wgid, lid, lindex);
  } else {
    ${body}(0u, wgid, lid, lindex);
  }
}
`;
  return code.slice(0, start) + replaced + code.slice(end);
}
/**
 * The coefficients copied from the record's words into a private array first, then indexed: the
 * WGSL as syclts printed it before it read an indexed array constant element by element.
 */
const copied = (code: string) =>
  replace(
    replace(code, /H_sc_coeffs_at\(slot, u32\(\(dy \* 3i\) \+ dx\)\)/, 'c[(dy * 3i) + dx]'),
    /\n( {2}let w: i32 = )/,
    `\n  let c = array<f32, 9>(${Array.from(
      { length: 9 },
      (_, i) => `bitcast<f32>(sc_buffer[slot].w[${i >> 2}].${'xyzw'[i & 3]})`,
    ).join(', ')});\n$1`,
  );
/**
 * The emulated WGSL as syclts printed it before it held records as words: the same record (the
 * same offsets) declared member by member, which `array<f32, 9>` (stride 4) keeps out of the
 * uniform address space, so the buffer was read-only storage.
 */
const inStorage = (code: string) =>
  (
    [
      [/fn H_sc_coeffs_at\(slot: u32, i: u32\)[^\n]*\n[^\n]*\n[^\n]*\n\}\n/, ''],
      [
        /struct SpecConstants \{[\s\S]*?\n\}\n(@group\(0\) @binding\(\d+\)) var<uniform> sc_buffer: array<SpecConstants, 64>;/,
        'struct SpecConstants {\n  sc_coeffs: array<f32, 9>,\n  sc_width: u32,\n  @size(8) sc_height: u32,\n}\n$1 var<storage, read> sc_buffer: array<SpecConstants>;',
      ],
      [
        /H_sc_coeffs_at\(slot, u32\(\(dy \* 3i\) \+ dx\)\)/,
        'sc_buffer[slot].sc_coeffs[(dy * 3i) + dx]',
      ],
      [/sc_buffer\[slot\]\.w\[2\]\.y/, 'sc_buffer[slot].sc_width'],
      [/sc_buffer\[slot\]\.w\[2\]\.z/, 'sc_buffer[slot].sc_height'],
    ] as const satisfies readonly (readonly [RegExp, string])[]
  ).reduce<string>((text, [from, to]) => replace(text, from, to), code);

/**
 * WGSL's `clamp` where syclts calls its signed clamp helper (which compares as u32 to keep an
 * NVIDIA driver defect in fused signed min/max away): what the workaround costs.
 */
const builtinClamp = (code: string) => replace(code, /H_i32_clamp_i32\(/g, 'clamp(');

interface Variant {
  readonly name: string;
  readonly code: string;
  readonly entry: string;
  /** Uniform or storage data by variable name (the image's buffers by their WGSL names). */
  readonly data: Record<string, ArrayBuffer>;
  readonly src: string;
  readonly dst: string;
  /** Pipeline constants (the image's launch-slot override). */
  readonly constants?: Record<string, number>;
}
/**
 * The pipelines the runtime makes for launches that bind their own record: in one dispatch (no
 * launch-slot code, no group offset), and split into dispatches (no launch-slot code, the group
 * offset read).
 */
const single: Record<string, number> = {
  ...(image.launchSlots?.override && { [image.launchSlots.override]: 0 }),
  ...(image.groupOffsetOverride && { [image.groupOffsetOverride]: 0 }),
};
const split: Record<string, number> = image.launchSlots?.override
  ? { [image.launchSlots.override]: 0 }
  : {};
const emulatedData = { launch_conv3x3: launchRecord, sc_buffer: scRecord };
const argsData = { launch_conv3x3Args: argsRecords };
const variants: Variant[] = [
  {
    name: 'hand-written, literal values',
    code: convLiteral(n, n, CONV_COEFFS),
    entry: 'main',
    data: {},
    src: 'src',
    dst: 'dst',
  },
  {
    name: 'hand-written, values in a uniform',
    code: convUniform(),
    entry: 'main',
    data: { params: convUniformRecord(n, n, CONV_COEFFS) },
    src: 'src',
    dst: 'dst',
  },
  {
    name: 'syclts emulated, as generated',
    code: emulatedWgsl,
    entry: 'k_conv3x3',
    data: emulatedData,
    src: 'a_conv3x3_src',
    dst: 'a_conv3x3_dst',
  },
  {
    name: 'syclts emulated, as generated, the pipeline of a launch in one dispatch of its own record (launch slots and group offset off: what the runtime runs for a large launch)',
    code: emulatedWgsl,
    entry: 'k_conv3x3',
    data: emulatedData,
    src: 'a_conv3x3_src',
    dst: 'a_conv3x3_dst',
    constants: single,
  },
  {
    name: 'syclts emulated, as generated, the pipeline of a launch split into dispatches (launch slots off, the group offset read)',
    code: emulatedWgsl,
    entry: 'k_conv3x3',
    data: emulatedData,
    src: 'a_conv3x3_src',
    dst: 'a_conv3x3_dst',
    constants: split,
  },
  {
    name: 'syclts emulated, no launch-slot read (slot = 0u)',
    code: noSlot(emulatedWgsl, 'launch_conv3x3'),
    entry: 'k_conv3x3',
    data: emulatedData,
    src: 'a_conv3x3_src',
    dst: 'a_conv3x3_dst',
  },
  {
    name: 'syclts emulated, as printed before records were held as words (storage buffer), in one dispatch',
    code: inStorage(emulatedWgsl),
    entry: 'k_conv3x3',
    data: emulatedData,
    src: 'a_conv3x3_src',
    dst: 'a_conv3x3_dst',
    constants: single,
  },
  {
    name: 'syclts emulated, the coefficients copied into a private array first (as printed before element reads), in one dispatch',
    code: copied(emulatedWgsl),
    entry: 'k_conv3x3',
    data: emulatedData,
    src: 'a_conv3x3_src',
    dst: 'a_conv3x3_dst',
    constants: single,
  },
  {
    name: "syclts emulated, in one dispatch, WGSL's clamp in place of the signed clamp helper",
    code: builtinClamp(emulatedWgsl),
    entry: 'k_conv3x3',
    data: emulatedData,
    src: 'a_conv3x3_src',
    dst: 'a_conv3x3_dst',
    constants: single,
  },
  {
    name: 'syclts emulated, two paths (the body a function of the slot, called with 0u when no slot is taken)',
    code: twoPaths(emulatedWgsl, 'k_conv3x3', 'launch_conv3x3'),
    entry: 'k_conv3x3',
    data: emulatedData,
    src: 'a_conv3x3_src',
    dst: 'a_conv3x3_dst',
  },
  {
    name: 'syclts kernel arguments, as generated',
    code: emulatedWgsl,
    entry: 'k_conv3x3Args',
    data: argsData,
    src: 'a_conv3x3Args_src',
    dst: 'a_conv3x3Args_dst',
  },
  {
    name: 'syclts kernel arguments, as generated, the pipeline of a launch in one dispatch of its own record',
    code: emulatedWgsl,
    entry: 'k_conv3x3Args',
    data: argsData,
    src: 'a_conv3x3Args_src',
    dst: 'a_conv3x3Args_dst',
    constants: single,
  },
  {
    name: 'syclts kernel arguments, as generated, the pipeline of a launch split into dispatches (launch slots off, the group offset read)',
    code: emulatedWgsl,
    entry: 'k_conv3x3Args',
    data: argsData,
    src: 'a_conv3x3Args_src',
    dst: 'a_conv3x3Args_dst',
    constants: split,
  },
  {
    name: "syclts kernel arguments, in one dispatch, WGSL's clamp in place of the signed clamp helper",
    code: builtinClamp(emulatedWgsl),
    entry: 'k_conv3x3Args',
    data: argsData,
    src: 'a_conv3x3Args_src',
    dst: 'a_conv3x3Args_dst',
    constants: single,
  },
  {
    name: 'syclts kernel arguments, no launch-slot read (slot = 0u)',
    code: noSlot(emulatedWgsl, 'launch_conv3x3Args[0]'),
    entry: 'k_conv3x3Args',
    data: argsData,
    src: 'a_conv3x3Args_src',
    dst: 'a_conv3x3Args_dst',
  },
  {
    name: 'syclts kernel arguments, two paths',
    code: twoPaths(emulatedWgsl, 'k_conv3x3Args', 'launch_conv3x3Args[0]'),
    entry: 'k_conv3x3Args',
    data: argsData,
    src: 'a_conv3x3Args_src',
    dst: 'a_conv3x3Args_dst',
  },
];

const input = Float32Array.from({ length: n * n }, () => Math.random() * 2 - 1);
const src = device.createBuffer({
  size: 4 * n * n,
  usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
});
device.queue.writeBuffer(src, 0, input);
const dst = device.createBuffer({
  size: 4 * n * n,
  usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
});

/** The entry point's text, to find which module-scope variables it uses. */
function entryText(code: string, entry: string): string {
  const of = (name: string) => {
    const start = code.indexOf(`fn ${name}(`);
    return start < 0 ? '' : code.slice(start, code.indexOf('\n}\n', start));
  };
  return of(entry) + of(`${entry}_body`);
}

const made = await Promise.all(
  variants.map(async (v) => {
    const module = device.createShaderModule({ code: v.code });
    const pipeline = await device.createComputePipelineAsync({
      layout: 'auto',
      compute: { module, entryPoint: v.entry, constants: v.constants ?? {} },
    });
    const body = entryText(v.code, v.entry);
    const entries: GPUBindGroupEntry[] = [];
    for (const m of v.code.matchAll(/@binding\((\d+)\) var(?:<([^>]+)>)? (\w+)/g)) {
      const [, index, space, name] = m;
      if (!new RegExp(`\\b${name}\\b`).test(body)) continue;
      let buffer: GPUBuffer;
      if (name === v.src) buffer = src;
      else if (name === v.dst) buffer = dst;
      else {
        const data = v.data[name!] ?? new ArrayBuffer(64);
        buffer = device.createBuffer({
          size: Math.max(16, data.byteLength),
          usage:
            (space === 'uniform' ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE) |
            GPUBufferUsage.COPY_DST,
        });
        device.queue.writeBuffer(buffer, 0, data);
      }
      entries.push({ binding: Number(index), resource: { buffer } });
    }
    const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
    return { ...v, pipeline, group };
  }),
);

async function readBack(): Promise<Float32Array> {
  const staging = device.createBuffer({
    size: 4 * n * n,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(dst, 0, staging, 0, 4 * n * n);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(staging.getMappedRange().slice(0));
  staging.destroy();
  return out;
}

const record =
  (v: (typeof made)[number]) =>
  (
    encoder: GPUCommandEncoder,
    timed: (first: boolean, last: boolean) => GPUComputePassDescriptor,
  ) => {
    const pass = encoder.beginComputePass(timed(true, true));
    pass.setPipeline(v.pipeline);
    pass.setBindGroup(0, v.group);
    pass.dispatchWorkgroups(n / 64, n / 4);
    pass.end();
  };

let reference: Float32Array | null = null;
for (const v of made) {
  device.queue.writeBuffer(dst, 0, new Float32Array(n * n).fill(Number.NaN));
  await timePasses(device, record(v), 1, 0);
  const out = await readBack();
  if (!reference) reference = out;
  let error = 0;
  for (let i = 0; i < n * n; i += 7) {
    error = Math.max(error, Math.abs(out[i]! - reference[i]!) / (Math.abs(reference[i]!) + 1e-3));
  }
  if (!(error < 1e-5)) throw new Error(`${v.name}: differs from the literal kernel by ${error}`);
}
console.log('outputs checked against the literal kernel');

const times = made.map((): number[] => []);
for (let round = 0; round < rounds; round++) {
  for (const [i, v] of made.entries()) {
    const t = await timePasses(device, record(v), 10, 2, round === 0 && i === 0 ? 300 : 20);
    times[i]!.push(...t.us);
  }
}
const lit = median(times[0]!);
const uni = median(times[1]!);
const rows = made.map((v, i) => {
  const m = median(times[i]!);
  return `| ${v.name} | ${m.toFixed(1)} | ${Math.min(...times[i]!).toFixed(1)} | ${(m / lit).toFixed(3)}x | ${(m / uni).toFixed(3)}x | ${((8 * n * n) / m / 1e3).toFixed(0)} GB/s |`;
});
console.log(
  `\nconv3x3 ${n}x${n}, ${rounds} rounds of 10 passes each, interleaved (median of ${10 * rounds})\n| WGSL | median µs | best µs | vs literal | vs hand-written uniform | rate (read + written once) |\n| --- | ---: | ---: | ---: | ---: | ---: |\n${rows.join('\n')}`,
);
process.exit(0);
