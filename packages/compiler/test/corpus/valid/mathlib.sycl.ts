import {
  atomic,
  deviceFunction,
  deviceGlobal,
  dot,
  f32,
  i32,
  specializationId,
  u32,
  vec3f,
  wgsl,
} from '@syclts/dsl';

/** Clamps a signed index into [0, n). */
export const clampIndex = deviceFunction({ args: [i32, u32], returns: u32 }, (i, n) => {
  if (i < 0) {
    return 0;
  }
  return Math.min(u32(i), n - 1);
});

export const lerp = deviceFunction(
  { args: [f32, f32, f32], returns: f32 },
  (a, b, t) => a + (b - a) * t,
);

/** Calls another device function. */
export const smoothLerp = deviceFunction({ args: [f32, f32, f32], returns: f32 }, (a, b, t) => {
  const s = t * t * (3 - 2 * t);
  return lerp(a, b, s);
});

export const luminance = deviceFunction({ args: [vec3f], returns: f32 }, (rgb) =>
  dot(rgb, vec3f(0.2126, 0.7152, 0.0722)),
);

export const bias = specializationId(f32, 0.5);
export const calls = deviceGlobal(atomic(u32));

/** Raw WGSL with a parameter, a specialization constant and a device global spliced in. */
export const biased = deviceFunction(
  { args: [f32], returns: f32 },
  (x) => wgsl`atomicAdd(&${calls}, 1u);
  return fma(${x}, 2.0, ${bias});`,
);

/** A function that returns nothing: it only counts. */
export const countCall = deviceFunction({ args: [u32] }, (n) => {
  if (n > 0) {
    atomicAdd(calls, n);
  }
});

import { atomicAdd } from '@syclts/dsl';
