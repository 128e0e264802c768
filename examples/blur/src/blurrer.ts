/** Runs the blur on a texture or a video frame, with any radius, into a texture of the same size. */
import type { DeviceTexture, Queue, SyclEvent } from '@syclts/runtime';
import { blur, blurVideo, radius } from './blur.sycl.ts';

export function blurTexture(
  queue: Queue,
  src: DeviceTexture,
  dst: DeviceTexture,
  r: number,
): SyclEvent {
  const [width, height] = src.size;
  return queue.submit((cgh) => {
    cgh.setSpecializationConstant(radius, r);
    cgh.parallelFor([height, width], blur, { src, dst });
  });
}

export function blurFrame(
  queue: Queue,
  frame: VideoFrame | HTMLVideoElement,
  dst: DeviceTexture,
  r: number,
): SyclEvent {
  const [width, height] = dst.size;
  return queue.submit((cgh) => {
    cgh.setSpecializationConstant(radius, r);
    cgh.parallelFor([height, width], blurVideo, { frame, dst });
  });
}
