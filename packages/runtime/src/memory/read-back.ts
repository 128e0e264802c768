/**
 * Device memory to the host, as buffers and textures read it: a staging buffer the command
 * copies into and maps, ordered after the commands submitted before and failing where the
 * memory's last writer failed (see Written).
 */
import { BufferUsage, MapMode } from '../platform/webgpu-flags.js';
import type { Scheduler, Written } from '../queue/scheduler.js';

/**
 * The first `keep` of `size` bytes that `copy` puts into a staging buffer, once read (an empty
 * buffer for 0 bytes).
 */
export async function readBack(
  scheduler: Scheduler,
  name: string,
  source: Written,
  size: number,
  copy: (encoder: GPUCommandEncoder, staging: GPUBuffer) => void,
  keep = size,
): Promise<ArrayBuffer> {
  const { device } = scheduler;
  let staging: GPUBuffer | null = null;
  const event = scheduler.schedule({
    name,
    reads: source,
    issue: (validate) => {
      validate();
      if (size === 0) return undefined;
      staging = device.createBuffer({ size, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
      const encoder = device.createCommandEncoder();
      copy(encoder, staging);
      device.queue.submit([encoder.finish()]);
      return staging.mapAsync(MapMode.READ);
    },
  });
  try {
    await event.wait();
    return staging ? (staging as GPUBuffer).getMappedRange().slice(0, keep) : new ArrayBuffer(0);
  } finally {
    (staging as GPUBuffer | null)?.destroy();
  }
}
