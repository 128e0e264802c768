/**
 * A Gaussian blur over a texture, its radius a specialization constant: each radius is a
 * pipeline of its own with the loop bounds as literals (native), or one pipeline reading the
 * radius at run time (emulated). One kernel reads a texture, the other a video frame.
 */
import {
  add,
  clamp,
  deviceFunction,
  div,
  exp,
  externalTexture,
  f32,
  i32,
  kernel,
  max,
  mul,
  specializationId,
  storageTexture2d,
  sub,
  texture2d,
  textureDimensions,
  textureLoad,
  u32,
  vec2i,
  vec4f,
} from '@syclts/dsl';

/** Texels on each side of the centre that the blur averages. */
export const radius = specializationId(u32, 3);

/** The Gaussian's weight at offset (dx, dy), its sigma half the radius. */
const weight = deviceFunction({ args: [i32, i32, i32], returns: f32 }, (dx, dy, r) => {
  const sigma = f32(max(r, 1)) * 0.5;
  return exp(-f32(dx * dx + dy * dy) / (2 * sigma * sigma));
});

export const blur = kernel(
  { range: 2, args: { src: texture2d(f32), dst: storageTexture2d('rgba8unorm', 'write') } },
  (item, kh, { src, dst }) => {
    const r = i32(kh.getSpecializationConstant(radius));
    const last = sub(vec2i(textureDimensions(src)), vec2i(1, 1));
    const at = vec2i(i32(item.getId(1)), i32(item.getId(0)));
    let sum = vec4f(0, 0, 0, 0);
    let total = f32(0);
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        const w = weight(dx, dy, r);
        const texel = textureLoad(src, clamp(add(at, vec2i(dx, dy)), vec2i(0, 0), last), 0);
        sum = add(sum, mul(texel, w));
        total += w;
      }
    }
    dst.write(at, div(sum, total));
  },
);

export const blurVideo = kernel(
  { range: 2, args: { frame: externalTexture(), dst: storageTexture2d('rgba8unorm', 'write') } },
  (item, kh, { frame, dst }) => {
    const r = i32(kh.getSpecializationConstant(radius));
    const last = sub(vec2i(textureDimensions(frame)), vec2i(1, 1));
    const at = vec2i(i32(item.getId(1)), i32(item.getId(0)));
    let sum = vec4f(0, 0, 0, 0);
    let total = f32(0);
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        const w = weight(dx, dy, r);
        const texel = textureLoad(frame, clamp(add(at, vec2i(dx, dy)), vec2i(0, 0), last));
        sum = add(sum, mul(texel, w));
        total += w;
      }
    }
    dst.write(at, div(sum, total));
  },
);
