/**
 * Where the time of the syclts matrix multiply goes: the WGSL the syclts build emitted for it,
 * as emitted and with single changes, against the hand-written literal kernel, all dispatched
 * with the same plain WebGPU calls (no runtime), GPU timestamps, medians, and checked against a
 * float64 reference. Run: node matmul-variants.mjs [n] [square|wide] (`wide`: matmul-wide.sycl.ts
 * beside the sweep's generator for its tiling).
 */
import { bindingOf } from '@syclts/dsl';
import { matmulWgsl } from '../gpu/matmul-wgsl.mjs';
import { benchDevice, median } from './gpu/device.js';
import { WIDE_TILING } from './gpu/kernel-speed.js';
import { matmulLiteral } from './gpu/literal-wgsl.js';
import { checkProduct, productBuffers } from './gpu/product-check.js';
import { matmul } from './kernels/matmul.sycl.ts';
import { matmulWide } from './kernels/matmul-wide.sycl.ts';

const n = Number(process.argv[2] ?? 4096);
const wide = process.argv[3] === 'wide';
const bench = await benchDevice();
const { device, timer } = bench;
console.log(`adapter: ${bench.description}`);

const binding = bindingOf(wide ? matmulWide : matmul)!;
const image = binding.program.images.find((im) => im.kernels[binding.symbolicId])!;
const info = image.kernels[binding.symbolicId]!;
const emitted = image.wgsl.native!;

/** Each function's `wid` (workgroup id plus the launch's group offset) rewritten by `use`. */
function rewriteWid(code: string, use: (launch: string) => string): string {
  return code
    .split('\nfn ')
    .map((part) => {
      const m =
        /\n {2}let wid = wgid \+ select\(vec3<u32>\(\), (launch_\w+)\.group_offset, \w+\);/.exec(
          part,
        );
      if (!m) return part;
      return part.replace(m[0], '').replace(/\bwid\b/g, use(m[1]!));
    })
    .join('\nfn ');
}

/** The kernel's override values: the size, the square kernel's k step (16), the group offset off. */
const constants: Record<string, number> = {
  ...(wide ? { 0: n } : { 0: n, 1: 16 }),
  // The runtime's pipeline for a launch of one dispatch: no group offset.
  ...(image.groupOffsetOverride && { [image.groupOffsetOverride]: 0 }),
};

/** The overrides written as WGSL constants of the same values. */
function constOverrides(code: string): string {
  return code
    .replace(/@id\(0\) override (\w+): u32 = \d+u;/, `const $1: u32 = ${n}u;`)
    .replace(/@id\(1\) override (\w+): u32 = \d+u;/, 'const $1: u32 = 16u;');
}

/**
 * The unrolled counters' values written into their blocks (`let q: u32 = 2u; { ... v[q] ... }`
 * becomes `v[2u]`), as the emitter did before the counters became run-time lets.
 */
function inlineCounters(code: string): string {
  let out = code;
  for (;;) {
    const m = /let (\w+): u32 = (\d+)u;\n(\s*)\{\n/.exec(out);
    if (!m) return out;
    const open = m.index + m[0].length - 2;
    let depth = 0;
    let close = open;
    for (; close < out.length; close++) {
      if (out[close] === '{') depth++;
      else if (out[close] === '}' && --depth === 0) break;
    }
    const body = out.slice(open, close).replace(new RegExp(`\\b${m[1]}\\b`, 'g'), `${m[2]}u`);
    out =
      out.slice(0, m.index) +
      out.slice(m.index + m[0].length - 1 - m[3]!.length, open) +
      body +
      out.slice(close);
  }
}

/** A's tile stored at the hand-written kernel's index form, `((kq * 4 + q) * 64 + m) / 4`. */
const storeIndex = (code: string) =>
  code.replace(
    /\(\(\(kq \* 4u\) \+ (\w+)\) \* 16u\) \+ \(m \/ 4u\)/g,
    '((((kq * 4u) + $1) * 64u) + m) / 4u',
  );

/** The hand-written kernel's binding numbers for syclts's: a, b, c at 0, 1, 2, the launch record at 3. */
const handNumbers: ReadonlyMap<number, number> = new Map(
  info.bindings.flatMap((bi) =>
    bi.kind === 'launch'
      ? [[bi.binding, 3] as const]
      : bi.kind === 'accessor'
        ? [[bi.binding, ['a', 'b', 'c'].indexOf(bi.arg)] as const]
        : [],
  ),
);
/** `code` with the kernel's `@binding(n)` renumbered by `map`. */
function rebound(code: string, map: ReadonlyMap<number, number>): string {
  return code.replace(/@binding\((\d+)\)/g, (whole, n: string) => {
    const to = map.get(Number(n));
    return to === undefined ? whole : `@binding(${to})`;
  });
}

/**
 * The launch-slot prologue of the arguments kernel's folded entry point, off (its override false),
 * put into the native kernel: a workgroup variable the entry point uses and a
 * `workgroupUniformLoad`, as the folded entry point (1.007x the hand-written kernel where the
 * native one runs at 1.017x) has them. `form`: the whole prologue with the variable declared
 * before the tiles (as the folded entry point's module has it) or after them, or only the store
 * to the variable (no `workgroupUniformLoad`, so no barrier).
 */
function slotPrologue(code: string, form: 'before' | 'after' | 'store'): string {
  const m = /\n( {2}let wid = wgid[^\n]*\n)/.exec(code);
  const tiles = /\nvar<workgroup> wg_\w+_tileB[^\n]*\n/.exec(code);
  if (!m || !tiles) throw new Error('matmul-variants: no wid or tiles in the native kernel');
  const declaration = 'var<workgroup> native_slot: u32;\noverride native_slots_on: bool = false;\n';
  const declared =
    form === 'after'
      ? code.replace(tiles[0], `${tiles[0]}${declaration}`)
      : code.replace('override group_offsets_on', `${declaration}override group_offsets_on`);
  const load = form === 'store' ? '' : '\n    slot = workgroupUniformLoad(&native_slot);';
  return declared.replace(
    m[0],
    `\n  var slot = 0u;\n  if (native_slots_on) {\n    if (lindex == 0u) {\n      native_slot = 7u;\n    }${load}\n  }\n${m[1]}`,
  );
}

const variants: Record<
  string,
  {
    code: string;
    syclts: boolean;
    constants?: Record<string, number>;
    /** The hand-written kernel's layout with a uniform binding it does not read, as syclts binds its launch record. */
    launchBinding?: true;
    /** syclts's bindings renumbered (old number to new), in the WGSL and the layout. */
    rebind?: ReadonlyMap<number, number>;
  }
> = {
  literal: {
    code: wide ? matmulWgsl({ ...WIDE_TILING, N: n }).code : matmulLiteral(n, 16),
    syclts: false,
  },
  'literal, a launch uniform bound beside it': {
    code: wide ? matmulWgsl({ ...WIDE_TILING, N: n }).code : matmulLiteral(n, 16),
    syclts: false,
    launchBinding: true,
  },
  'syclts as emitted (overrides)': { code: emitted, syclts: true, constants },
  'syclts, overrides made const': { code: constOverrides(emitted), syclts: true },
  'syclts, group offset added at each use': {
    code: rewriteWid(emitted, (launch) => `(wgid + ${launch}.group_offset)`),
    syclts: true,
    constants,
  },
  'syclts, no group offset': {
    code: rewriteWid(emitted, () => 'wgid'),
    syclts: true,
    constants,
  },
  'syclts, overrides made const and no group offset': {
    code: constOverrides(rewriteWid(emitted, () => 'wgid')),
    syclts: true,
  },
  'syclts, the unused let of the size removed': {
    code: emitted.replace(/\n {2}let n: u32 = \w+;\n/, '\n'),
    syclts: true,
    constants,
  },
  "syclts, bindings numbered as the hand-written kernel's (a, b, c at 0, 1, 2, the launch record at 3)":
    { code: rebound(emitted, handNumbers), syclts: true, constants, rebind: handNumbers },
  "syclts, the folded entry point's launch-slot prologue (off)": {
    code: slotPrologue(emitted, 'before'),
    syclts: true,
    constants,
  },
  'syclts, that prologue with its workgroup variable declared after the tiles': {
    code: slotPrologue(emitted, 'after'),
    syclts: true,
    constants,
  },
  'syclts, only the store to the workgroup variable (off)': {
    code: slotPrologue(emitted, 'store'),
    syclts: true,
    constants,
  },
  'syclts, a workgroupBarrier() first': {
    code: emitted.replace(/\n( {2}let wid = wgid)/, '\n  workgroupBarrier();\n$1'),
    syclts: true,
    constants,
  },
  'syclts, unrolled counters inlined': { code: inlineCounters(emitted), syclts: true, constants },
  "syclts, A's tile index as hand-written": { code: storeIndex(emitted), syclts: true, constants },
  'syclts, both': { code: storeIndex(inlineCounters(emitted)), syclts: true, constants },
};

const product = productBuffers(device, n);
const { a, b, c } = product;
const launch = device.createBuffer({
  size: 32,
  usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
});
// The launch record: the global range (WGSL's x, y: the columns' items, the rows' items).
device.queue.writeBuffer(
  launch,
  0,
  new Uint32Array(wide ? [n / 8, n / 4, 1, 0, 0, 0, 0, 0] : [n / 4, n / 8, 1, 0, 0, 0, 0, 0]),
);

const rows: string[] = [];
for (const [name, v] of Object.entries(variants)) {
  const entries: GPUBindGroupLayoutEntry[] = [];
  const resources: GPUBindGroupEntry[] = [];
  if (v.syclts) {
    for (const bi of info.bindings) {
      if (bi.kind === 'launch') {
        const binding = v.rebind?.get(bi.binding) ?? bi.binding;
        entries.push({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } });
        resources.push({ binding, resource: { buffer: launch } });
      } else if (bi.kind === 'accessor') {
        const buffer = { a, b, c }[bi.arg as 'a' | 'b' | 'c'];
        const binding = v.rebind?.get(bi.binding) ?? bi.binding;
        entries.push({
          binding,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type: bi.access === 'read' ? 'read-only-storage' : 'storage' },
        });
        resources.push({ binding, resource: { buffer } });
      }
    }
  } else {
    [a, b, c].forEach((buffer, i) => {
      entries.push({
        binding: i,
        visibility: GPUShaderStage.COMPUTE,
        buffer: { type: i < 2 ? 'read-only-storage' : 'storage' },
      });
      resources.push({ binding: i, resource: { buffer } });
    });
    if (v.launchBinding) {
      entries.push({ binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } });
      resources.push({ binding: 3, resource: { buffer: launch } });
    }
  }
  const layout = device.createBindGroupLayout({ entries });
  device.pushErrorScope('validation');
  const pipeline = await device.createComputePipelineAsync({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: {
      module: device.createShaderModule({ code: v.code }),
      entryPoint: v.syclts ? info.entryPoint : 'main',
      ...(v.constants ? { constants: v.constants } : {}),
    },
  });
  const error = await device.popErrorScope();
  if (error) throw new Error(`${name}: ${error.message}`);
  const bindGroup = device.createBindGroup({ layout, entries: resources });
  const dispatch = () => {
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(n / 128, wide ? n / 64 : n / 128);
    pass.end();
    device.queue.submit([encoder.finish()]);
  };
  const maxError = await checkProduct(device, product, dispatch, name);
  const warm = performance.now() + 300;
  while (performance.now() < warm) {
    for (let i = 0; i < 8; i++) dispatch();
    await device.queue.onSubmittedWorkDone();
  }
  const us: number[] = [];
  for (let round = 0; round < 3; round++) {
    timer.arm();
    for (let i = 0; i < 10; i++) dispatch();
    us.push(...(await timer.collect()));
  }
  const t = median(us);
  rows.push(
    `| ${name} | ${t.toFixed(1)} | ${((2 * n ** 3) / t / 1e6).toFixed(2)} | ${maxError.toExponential(1)} |`,
  );
  console.log(rows.at(-1));
}
console.log(
  `\nn = ${n}\n| WGSL | median µs | TFLOP/s | max rel. error |\n| --- | ---: | ---: | ---: |\n${rows.join('\n')}`,
);
process.exit(0);
