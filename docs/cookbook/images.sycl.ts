import {
  add,
  clamp,
  div,
  exp,
  f32,
  i32,
  kernel,
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

/** Texels on each side that the blur averages: a literal in each radius's pipeline. */
export const radius = specializationId(u32, 2);

export const blur = kernel(
  { range: 2, args: { src: texture2d(f32), dst: storageTexture2d('rgba8unorm', 'write') } },
  (item, kh, { src, dst }) => {
    const r = i32(kh.getSpecializationConstant(radius));
    const sigma = f32(r + 1) * 0.5;
    const last = sub(vec2i(textureDimensions(src)), vec2i(1, 1));
    const at = vec2i(i32(item.getId(1)), i32(item.getId(0)));
    let sum = vec4f(0, 0, 0, 0);
    let total = f32(0);
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        const w = exp(-f32(dx * dx + dy * dy) / (2 * sigma * sigma));
        sum = add(
          sum,
          mul(textureLoad(src, clamp(add(at, vec2i(dx, dy)), vec2i(0, 0), last), 0), w),
        );
        total += w;
      }
    }
    dst.write(at, div(sum, total));
  },
);
