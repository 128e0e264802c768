/**
 * Hand-written WGSL with literal constants: the baselines for the syclts kernels. Each is the
 * same algorithm as the `.sycl.ts` kernel it is compared with (bench/src/kernels), with every
 * value the kernel specialises written as a WGSL literal.
 */

/** matmul.sycl.ts's kernel for an n x n product, k step bk; dispatch n/128 x n/128 workgroups. */
export function matmulLiteral(n: number, bk: number): string {
  return `const N: u32 = ${n}u;
const N4: u32 = ${n / 4}u;
const BK: u32 = ${bk}u;
const LOADS: u32 = ${bk / 8}u;
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> C: array<vec4f>;
var<workgroup> tileA: array<vec4f, 512>;
var<workgroup> tileB: array<vec4f, 512>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) lid: vec3u,
        @builtin(local_invocation_index) tid: u32) {
  let ty = lid.y;
  let tx = lid.x;
  let row0 = wg.y * 128u;
  let col04 = wg.x * 32u;
  var acc: array<vec4f, 16>;
  for (var k0 = 0u; k0 < N; k0 += BK) {
    for (var l = 0u; l < LOADS; l++) {
      let e = tid + l * 256u;
      let m = e / (BK / 4u);
      let kq = e % (BK / 4u);
      let v = A[(row0 + m) * N4 + k0 / 4u + kq];
      for (var q = 0u; q < 4u; q++) {
        tileA[(kq * 4u + q) * 32u + m / 4u][m % 4u] = v[q];
      }
    }
    for (var l = 0u; l < LOADS; l++) {
      let e = tid + l * 256u;
      tileB[e] = B[(k0 + e / 32u) * N4 + col04 + e % 32u];
    }
    workgroupBarrier();
    for (var k = 0u; k < BK; k++) {
      let a0 = tileA[k * 32u + ty];
      let a1 = tileA[k * 32u + ty + 16u];
      let b0 = tileB[k * 32u + tx];
      let b1 = tileB[k * 32u + tx + 16u];
      for (var i = 0u; i < 4u; i++) {
        acc[i * 2u] = fma(vec4f(a0[i]), b0, acc[i * 2u]);
        acc[i * 2u + 1u] = fma(vec4f(a0[i]), b1, acc[i * 2u + 1u]);
        acc[8u + i * 2u] = fma(vec4f(a1[i]), b0, acc[8u + i * 2u]);
        acc[9u + i * 2u] = fma(vec4f(a1[i]), b1, acc[9u + i * 2u]);
      }
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i++) {
    let top = (row0 + ty * 4u + i) * N4 + col04 + tx;
    let bottom = (row0 + (ty + 16u) * 4u + i) * N4 + col04 + tx;
    C[top] = acc[i * 2u];
    C[top + 16u] = acc[i * 2u + 1u];
    C[bottom] = acc[8u + i * 2u];
    C[bottom + 16u] = acc[9u + i * 2u];
  }
}
`;
}

/**
 * conv-vec4.sycl.ts's `conv3x3Vec4` for a width x height image, four pixels an item; dispatch
 * width/256 x height/4 workgroups.
 */
export function convVec4Literal(width: number, height: number, coeffs: readonly number[]): string {
  const c = coeffs.map((v) => `${v}f`).join(', ');
  return `const W4: i32 = ${width / 4}i;
const H: i32 = ${height}i;
const COEFFS = array<f32, 9>(${c});
@group(0) @binding(0) var<storage, read> src: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4f>;

@compute @workgroup_size(64, 4)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let y = i32(gid.y);
  let q = i32(gid.x);
  var out = vec4f(0.0f);
  for (var dy = 0i; dy < 3i; dy++) {
    let row = clamp(y + dy - 1i, 0i, H - 1i) * W4;
    let mid = src[row + q];
    let left = src[row + max(q - 1i, 0i)];
    let right = src[row + min(q + 1i, W4 - 1i)];
    let l = select(left.w, mid.x, q == 0i);
    let r = select(right.x, mid.w, q == W4 - 1i);
    out = fma(vec4f(COEFFS[dy * 3i]), vec4f(l, mid.x, mid.y, mid.z), out);
    out = fma(vec4f(COEFFS[dy * 3i + 1i]), mid, out);
    out = fma(vec4f(COEFFS[dy * 3i + 2i]), vec4f(mid.y, mid.z, mid.w, r), out);
  }
  dst[y * W4 + q] = out;
}
`;
}

/** conv.sycl.ts's `conv3x3` for a width x height image; dispatch width/64 x height/4 workgroups. */
export function convLiteral(width: number, height: number, coeffs: readonly number[]): string {
  const c = coeffs.map((v) => `${v}f`).join(', ');
  return `const W: i32 = ${width}i;
const H: i32 = ${height}i;
const COEFFS = array<f32, 9>(${c});
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(64, 4)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let y = i32(gid.y);
  let x = i32(gid.x);
  var acc = 0.0f;
  for (var dy = 0i; dy < 3i; dy++) {
    let row = clamp(y + dy - 1i, 0i, H - 1i) * W;
    for (var dx = 0i; dx < 3i; dx++) {
      acc += COEFFS[dy * 3i + dx] * src[row + clamp(x + dx - 1i, 0i, W - 1i)];
    }
  }
  dst[y * W + x] = acc;
}
`;
}

/**
 * matmulLiteral's kernel with the size and k step read from a uniform (`Params` at binding 3:
 * n, the k step, then n / 4 and the loads per invocation), as a hand-written kernel takes run-time
 * values. `derived`: whether n / 4 and the loads are computed in the kernel from n and the k step,
 * as matmul.sycl.ts computes them (the same algorithm), or read from the uniform, computed once on
 * the host (a kernel the compiler cannot see through: 2% faster on an H200).
 */
export function matmulUniform(
  n: number,
  bk: number,
  derived: 'in the kernel' | 'on the host',
): string {
  const code = matmulLiteral(n, bk);
  const body = code.slice(code.indexOf('@group(0) @binding(0)'));
  const reads =
    derived === 'in the kernel'
      ? '  let N = params.n;\n  let BK = params.bk;\n  let N4 = N / 4u;\n  let LOADS = ((BK * 128u) / 4u) / 256u;\n'
      : '  let N = params.n;\n  let BK = params.bk;\n  let N4 = params.n4;\n  let LOADS = params.loads;\n';
  const entry = '@builtin(local_invocation_index) tid: u32) {\n';
  if (!body.includes(entry)) throw new Error('matmulUniform: the entry point changed');
  return `struct Params { n: u32, bk: u32, n4: u32, loads: u32 }
@group(0) @binding(3) var<uniform> params: Params;
${body.replace(entry, entry + reads)}`;
}

/**
 * conv.sycl.ts's `conv3x3` with its values read from a uniform (`convUniformRecord`), as a
 * hand-written kernel takes run-time values: src, dst, then the uniform, in DirectKernel's order.
 */
export function convUniform(): string {
  return `struct Params { weights: mat3x3f, w: u32, h: u32 }
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(64, 4)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let w = i32(params.w);
  let h = i32(params.h);
  let y = i32(gid.y);
  let x = i32(gid.x);
  var acc = 0.0f;
  for (var dy = 0i; dy < 3i; dy++) {
    let row = clamp(y + dy - 1i, 0i, h - 1i) * w;
    for (var dx = 0i; dx < 3i; dx++) {
      acc += params.weights[dy][dx] * src[row + clamp(x + dx - 1i, 0i, w - 1i)];
    }
  }
  dst[y * w + x] = acc;
}`;
}

/** convUniform's `Params` (a mat3x3f of the coefficients by row, then width and height): 64 bytes. */
export function convUniformRecord(
  width: number,
  height: number,
  coeffs: readonly number[],
): ArrayBuffer {
  const record = new ArrayBuffer(64);
  const f = new Float32Array(record);
  for (let dy = 0; dy < 3; dy++) {
    for (let dx = 0; dx < 3; dx++) f[dy * 4 + dx] = coeffs[dy * 3 + dx]!;
  }
  new Uint32Array(record).set([width, height], 12);
  return record;
}

/** A plain WebGPU pipeline over storage buffers (read-only ones first, then one written). */
export class DirectKernel {
  readonly #device: GPUDevice;
  readonly #pipeline: GPUComputePipeline;
  readonly #bindGroup: GPUBindGroup;

  private constructor(device: GPUDevice, pipeline: GPUComputePipeline, bindGroup: GPUBindGroup) {
    this.#device = device;
    this.#pipeline = pipeline;
    this.#bindGroup = bindGroup;
  }

  static async create(
    device: GPUDevice,
    code: string,
    inputs: readonly GPUBuffer[],
    output: GPUBuffer,
    /** Bound after the output, as a uniform. */
    uniform?: GPUBuffer,
  ): Promise<DirectKernel> {
    const buffers = [...inputs, output, ...(uniform ? [uniform] : [])];
    const type = (binding: number): GPUBufferBindingType =>
      binding < inputs.length
        ? 'read-only-storage'
        : binding === inputs.length
          ? 'storage'
          : 'uniform';
    const layout = device.createBindGroupLayout({
      entries: buffers.map((_, binding) => ({
        binding,
        visibility: GPUShaderStage.COMPUTE,
        buffer: { type: type(binding) },
      })),
    });
    const pipeline = await device.createComputePipelineAsync({
      layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      compute: { module: device.createShaderModule({ code }), entryPoint: 'main' },
    });
    const bindGroup = device.createBindGroup({
      layout,
      entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    return new DirectKernel(device, pipeline, bindGroup);
  }

  /** `count` dispatches in one compute pass of one command buffer, submitted once. */
  dispatchMany(count: number, x: number, y: number): void {
    const encoder = this.#device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#bindGroup);
    for (let i = 0; i < count; i++) pass.dispatchWorkgroups(x, y);
    pass.end();
    this.#device.queue.submit([encoder.finish()]);
  }

  /** One command buffer with one compute pass per dispatch: the naive way to launch. */
  dispatch(x: number, y: number): void {
    const encoder = this.#device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#bindGroup);
    pass.dispatchWorkgroups(x, y);
    pass.end();
    this.#device.queue.submit([encoder.finish()]);
  }
}
