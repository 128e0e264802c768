/** RGBA8 pixels to and from the float image the kernel works on, and a generated test scene. */
import type { Image } from './filters.ts';

export function fromRgba8(
  width: number,
  height: number,
  rgba: Uint8Array | Uint8ClampedArray,
): Image {
  const pixels = new Float32Array(width * height * 4);
  for (let i = 0; i < pixels.length; i++) pixels[i] = rgba[i]! / 255;
  return { width, height, pixels };
}

/** Values outside [0, 1] (sharpen and edge filters make them) are clamped. */
export function toRgba8(pixels: Float32Array): Uint8ClampedArray<ArrayBuffer> {
  const rgba = new Uint8ClampedArray(pixels.length);
  for (let i = 0; i < pixels.length; i++) rgba[i] = Math.round(pixels[i]! * 255);
  return rgba;
}

/**
 * A scene with soft gradients, hard edges and fine detail, so that each filter shows: a sky,
 * a sun, a checkered floor, and stripes of growing frequency.
 */
export function sceneImage(width: number, height: number): Image {
  const pixels = new Float32Array(width * height * 4);
  const horizon = Math.floor(height * 0.6);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const v = y / height;
      let rgb: [number, number, number];
      if (y < horizon) {
        const t = y / horizon;
        rgb = [0.35 + 0.4 * t, 0.55 + 0.3 * t, 0.95 - 0.1 * t];
        const dx = u - 0.7;
        const dy = v - 0.25;
        if (dx * dx + dy * dy < 0.012) rgb = [1, 0.85, 0.3];
        if (u > 0.08 && u < 0.42 && v > 0.12 && v < 0.3) {
          // Stripes whose period shrinks from 16 to 2 pixels.
          const period = 16 - Math.floor(((u - 0.08) / 0.34) * 7) * 2;
          rgb = Math.floor(x / (period / 2)) % 2 === 0 ? [0.1, 0.1, 0.15] : [0.95, 0.95, 0.95];
        }
      } else {
        // The floor: a checkerboard in perspective.
        const depth = (y - horizon + 1) / (height - horizon);
        const cx = Math.floor(((u - 0.5) / depth) * 8);
        const cy = Math.floor(8 / depth);
        const shade = 0.45 + 0.5 * depth;
        rgb =
          (cx + cy) % 2 === 0
            ? [0.8 * shade, 0.3 * shade, 0.2 * shade]
            : [0.95 * shade, 0.9 * shade, 0.8 * shade];
      }
      pixels.set([...rgb, 1], (y * width + x) * 4);
    }
  }
  return { width, height, pixels };
}
