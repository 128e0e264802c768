import {
  accessor,
  atan2,
  atomic,
  atomicAdd,
  atomicMax,
  countLeadingZeros,
  countOneBits,
  deviceFunction,
  deviceGlobal,
  exp2,
  f32,
  firstLeadingBit,
  firstTrailingBit,
  i32,
  kernel,
  log2,
  mat2x2f,
  mat4x4f,
  mul,
  pack4x8unorm,
  pack4xU8,
  reverseBits,
  struct,
  tanh,
  u32,
  unpack4x8unorm,
  unpack4xU8,
  vec2f,
  vec3u,
  vec4f,
  wgsl,
} from '@syclts/dsl';

/** Integer bit built-ins and Math.clz32 / Math.imul. */
export const bits = kernel(
  { range: 1, args: { a: accessor(u32, 'read'), out: accessor(u32, 'write') } },
  (item, _kh, { a, out }) => {
    const i = item.getId(0);
    const x = a[i]!;
    const base = i * 6;
    out[base] = countOneBits(x);
    out[base + 1] = reverseBits(x);
    out[base + 2] = countLeadingZeros(x) + Math.clz32(x >>> 4) * 100;
    out[base + 3] = firstLeadingBit(x);
    out[base + 4] = firstTrailingBit(x);
    out[base + 5] = u32(Math.imul(i32(x), -3));
  },
);

/** Transcendental built-ins. */
export const transcendental = kernel(
  { range: 1, args: { x: accessor(f32, 'read'), out: accessor(f32, 'write') } },
  (item, _kh, { x, out }) => {
    const i = item.getId(0);
    const v = x[i]!;
    out[i * 4] = atan2(v, 1.5) + Math.atan(v);
    out[i * 4 + 1] = tanh(v) * Math.cosh(v * 0.5);
    out[i * 4 + 2] = exp2(v) + log2(Math.abs(v) + 1);
    out[i * 4 + 3] = Math.log(Math.abs(v) + 2) * Math.tan(v * 0.25);
  },
);

/** Bool locals, reassigned and combined. */
export const flags = kernel(
  { range: 1, args: { a: accessor(u32, 'read'), out: accessor(u32, 'write'), strict: u32 } },
  (item, _kh, { a, out, strict }) => {
    const i = item.getId(0);
    let ok = a[i]! % 2 === 0;
    const small = a[i]! < 50;
    if (strict > 0) {
      ok = ok && small;
    } else {
      ok = ok || small;
    }
    out[i] = ok ? 1 : 0;
  },
);

const Light = struct({ color: vec3u, intensity: f32 });

/** Value arguments of vector and struct type (in the launch uniform). */
export const valueArgs = kernel(
  { range: 1, args: { out: accessor(f32, 'write'), offset: vec2f, light: Light, scale: i32 } },
  (item, _kh, { out, offset, light, scale }) => {
    const i = item.getId(0);
    out[i] =
      f32(i) * offset.x + offset.y + f32(light.color.y) * light.intensity + f32(scale * i32(i));
  },
);

/** A device function over matrices. */
export const rotate = deviceFunction({ args: [f32, vec2f], returns: vec2f }, (angle, p) => {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return mul(mat2x2f(c, s, -s, c), p);
});

/** A second raw-WGSL function, with a local of its own. */
export const maskedCount = deviceFunction(
  { args: [u32, u32], returns: u32 },
  (value, mask) => wgsl`let both = ${value} & ${mask};
  return countOneBits(both) + (${value} >> 24u);`,
);

export const rotatePoints = kernel(
  { range: 1, args: { p: accessor(vec2f, 'read'), out: accessor(vec2f, 'write'), angle: f32 } },
  (item, _kh, { p, out, angle }) => {
    const i = item.getId(0);
    out[i] = rotate(angle * f32(i), p[i]!);
  },
);

export const maskedCounts = kernel(
  { range: 1, args: { a: accessor(u32, 'read'), out: accessor(u32, 'write') } },
  (item, _kh, { a, out }) => {
    const i = item.getId(0);
    out[i] = maskedCount(a[i]!, 0x0f0f0f0f);
  },
);

export const events = deviceGlobal(struct({ count: atomic(u32), maxSeen: atomic(i32) }));

/** A 4x4 transform, and atomics on fields of a device global reached through `.value`. */
export const transform = kernel(
  {
    range: 1,
    args: {
      p: accessor(vec4f, 'read'),
      m: accessor(mat4x4f, 'read'),
      out: accessor(vec4f, 'write'),
    },
  },
  (item, _kh, { p, m, out }) => {
    const i = item.getId(0);
    const v = mul(m[0]!, p[i]!);
    out[i] = v;
    atomicAdd(events.value.count, 1);
    atomicMax(events.value.maxSeen, i32(Math.floor(v.w)));
  },
);

/** RGBA8 pixels as u32s: the colour scaled by `gain` (alpha kept), and the channels as BGRA. */
export const pixels = kernel(
  {
    range: 1,
    args: { px: accessor(u32, 'read'), out: accessor(u32, 'write'), gain: f32 },
  },
  (item, _kh, { px, out, gain }) => {
    const i = item.getId(0);
    const c = unpack4x8unorm(px[i]!);
    out[i * 2] = pack4x8unorm(vec4f(mul(c.rgb, gain), c.a));
    out[i * 2 + 1] = pack4xU8(unpack4xU8(px[i]!).bgra);
  },
);
