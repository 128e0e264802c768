/**
 * Writes bytes that do not fill whole 4-byte words into a storage buffer. WebGPU's writeBuffer
 * and copies move whole words, so the partial words at the edges are merged on the GPU by a
 * one-invocation-per-word compute pass, in queue order. Nothing is read back to the host in
 * between, so writes of different bytes of one word from several queues of a device all land.
 */
import { BufferUsage, ShaderStage } from '../platform/webgpu-flags.js';

const PATCH_WGSL = `
struct Patch { word: u32, keep: u32, bits: u32, unused: u32 }
@group(0) @binding(0) var<storage, read_write> words: array<u32>;
@group(0) @binding(1) var<storage, read> patches: array<Patch>;
@compute @workgroup_size(1)
fn merge_words(@builtin(global_invocation_id) id: vec3u) {
  let p = patches[id.x];
  words[p.word] = (words[p.word] & p.keep) | p.bits;
}
`;

export class BytePatcher {
  #pipeline: { pipeline: GPUComputePipeline; layout: GPUBindGroupLayout } | null = null;

  constructor(readonly device: GPUDevice) {}

  /** Writes `bytes` at byte `offset` of `buffer` (a STORAGE | COPY_DST buffer). */
  write(buffer: GPUBuffer, offset: number, bytes: Uint8Array<ArrayBuffer>, label: string): void {
    const { device } = this;
    const end = offset + bytes.byteLength;
    const lo = Math.ceil(offset / 4) * 4;
    const hi = Math.max(lo, Math.floor(end / 4) * 4);
    // Whole words in the middle go as they are.
    if (hi > lo) device.queue.writeBuffer(buffer, lo, bytes, lo - offset, hi - lo);
    const patches: number[] = [];
    for (const word of new Set([Math.floor(offset / 4), Math.floor((end - 1) / 4)])) {
      if (word * 4 >= lo && word * 4 + 4 <= hi) continue;
      let keep = 0xffffffff;
      let bits = 0;
      for (let b = 0; b < 4; b++) {
        const at = word * 4 + b;
        if (at < offset || at >= end) continue;
        keep &= ~(0xff << (8 * b));
        bits |= bytes[at - offset]! << (8 * b);
      }
      patches.push(word, keep >>> 0, bits >>> 0, 0);
    }
    if (patches.length === 0) return;
    const list = device.createBuffer({
      label: `${label} (partial words)`,
      size: patches.length * 4,
      usage: BufferUsage.STORAGE,
      mappedAtCreation: true,
    });
    new Uint32Array(list.getMappedRange()).set(patches);
    list.unmap();
    const { pipeline, layout } = this.#pipelineOnce();
    const encoder = device.createCommandEncoder({ label });
    const pass = encoder.beginComputePass({ label });
    pass.setPipeline(pipeline);
    pass.setBindGroup(
      0,
      device.createBindGroup({
        layout,
        entries: [
          { binding: 0, resource: { buffer } },
          { binding: 1, resource: { buffer: list } },
        ],
      }),
    );
    pass.dispatchWorkgroups(patches.length / 4);
    pass.end();
    device.queue.submit([encoder.finish()]);
    // Freed once the submitted pass has run.
    list.destroy();
  }

  #pipelineOnce() {
    if (!this.#pipeline) {
      const { device } = this;
      const visibility = ShaderStage.COMPUTE;
      const layout = device.createBindGroupLayout({
        entries: [
          { binding: 0, visibility, buffer: { type: 'storage' } },
          { binding: 1, visibility, buffer: { type: 'read-only-storage' } },
        ],
      });
      const pipeline = device.createComputePipeline({
        label: 'syclts partial-word writes',
        layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
        compute: {
          module: device.createShaderModule({ code: PATCH_WGSL }),
          entryPoint: 'merge_words',
        },
      });
      this.#pipeline = { pipeline, layout };
    }
    return this.#pipeline;
  }
}
