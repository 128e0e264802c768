/**
 * Every texture format syclts takes, on the adapter: fresh random texels written by the host are
 * what `textureLoad` gives a kernel (against a CPU decoding of the format), and every storage
 * format the device offers stores what a kernel writes and loads it back through 'read' and
 * 'read_write' access where WebGPU allows it.
 */
import '../src/textures.js';
import {
  accessor,
  f16Round,
  f32,
  i32,
  type Kernel,
  kernel,
  READ_WRITE_FORMATS,
  STORAGE_FORMATS,
  type StorageFormat,
  storageTexture2d,
  texture2d,
  u32,
  vec4f,
  vec4i,
  vec4u,
} from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { TEXTURE_FORMATS, type TextureFormat } from '../src/textures.js';
import { compileSources } from './support/compile.js';
import { freshQueue, randomU32 } from './support/gpu.js';

const W = 7;
const H = 3;
const N = W * H;

/** Host bytes of random texels of `format`, finite where the format holds floats. */
function randomTexels(format: TextureFormat, seed: number): Uint8Array {
  const [bytes] = TEXTURE_FORMATS[format];
  const words = randomU32(Math.ceil((N * bytes) / 4), seed);
  const data = new Uint8Array(words.buffer, 0, N * bytes);
  if (format.endsWith('16float')) {
    // No infinities or NaNs: exponents below 31.
    const halves = new Uint16Array(data.buffer, 0, data.length / 2);
    for (let i = 0; i < halves.length; i++)
      if ((halves[i]! & 0x7c00) === 0x7c00) halves[i]! ^= 0x4000;
  }
  if (format.endsWith('32float')) {
    const floats = new Float32Array(data.buffer, 0, data.length / 4);
    for (let i = 0; i < floats.length; i++) floats[i] = (words[i]! % 200_001) / 64 - 1500;
  }
  if (format === 'rg11b10ufloat') {
    const packed = new Uint32Array(data.buffer, 0, N);
    // Exponents below 31 in each of the three small floats.
    for (let i = 0; i < N; i++) packed[i] = packed[i]! & ~((1 << 10) | (1 << 21) | (1 << 31));
  }
  return data;
}

function half(bits: number): number {
  const e = (bits >> 10) & 0x1f;
  const m = bits & 0x3ff;
  const sign = bits & 0x8000 ? -1 : 1;
  return sign * (e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15));
}

/** An unsigned float of `m` mantissa bits and a 5-bit exponent (rg11b10ufloat's channels). */
function smallFloat(bits: number, m: number): number {
  const e = bits >> m;
  const f = bits & ((1 << m) - 1);
  return e === 0 ? f * 2 ** (-14 - m) : (1 + f / 2 ** m) * 2 ** (e - 15);
}

/** What `textureLoad` gives for texel `i`: four components, missing ones as (0, 0, 0, 1). */
function decode(format: TextureFormat, data: Uint8Array, i: number): number[] {
  const [bytes] = TEXTURE_FORMATS[format];
  const view = new DataView(data.buffer, data.byteOffset + i * bytes, bytes);
  if (format === 'rgb10a2unorm') {
    const v = view.getUint32(0, true);
    return [v & 0x3ff, (v >> 10) & 0x3ff, (v >> 20) & 0x3ff]
      .map((c) => c / 1023)
      .concat((v >>> 30) / 3);
  }
  if (format === 'rg11b10ufloat') {
    const v = view.getUint32(0, true);
    return [smallFloat(v & 0x7ff, 6), smallFloat((v >> 11) & 0x7ff, 6), smallFloat(v >>> 22, 5), 1];
  }
  const channels =
    format.startsWith('rgba') || format.startsWith('bgra') ? 4 : format.startsWith('rg') ? 2 : 1;
  const size = bytes / channels;
  const read = (c: number): number => {
    const at = c * size;
    if (format.includes('32float')) return view.getFloat32(at, true);
    if (format.includes('16float')) return half(view.getUint16(at, true));
    const signed = format.includes('sint') || format.includes('snorm');
    const raw =
      size === 1
        ? signed
          ? view.getInt8(at)
          : view.getUint8(at)
        : size === 2
          ? signed
            ? view.getInt16(at, true)
            : view.getUint16(at, true)
          : signed
            ? view.getInt32(at, true)
            : view.getUint32(at, true);
    if (format.includes('unorm')) return raw / (2 ** (8 * size) - 1);
    if (format.includes('snorm')) return Math.max(raw / (2 ** (8 * size - 1) - 1), -1);
    return raw;
  };
  const values = [0, 0, 0, 1];
  for (let c = 0; c < channels; c++) values[c] = read(c);
  if (format.startsWith('bgra')) [values[0], values[2]] = [values[2]!, values[0]!];
  // sRGB formats load as linear light (alpha is linear already).
  if (format.endsWith('-srgb')) {
    for (let c = 0; c < 3; c++) {
      const v = values[c]!;
      values[c] = v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }
  }
  return values;
}

const SAMPLE_TYPES = ['f32', 'u32', 'i32'] as const;
const VEC4 = { f32: 'vec4f', u32: 'vec4u', i32: 'vec4i' } as const;
const storageFormats = Object.keys(STORAGE_FORMATS) as StorageFormat[];

const source = [
  `import { accessor, kernel, storageTexture2d, texture2d, textureLoad, f32, i32, u32, vec2u, vec4f, vec4i, vec4u } from '@syclts/dsl';`,
  ...SAMPLE_TYPES.map(
    (
      s,
    ) => `export const load_${s} = kernel({ range: 2, args: { t: texture2d(${s}), out: accessor(${VEC4[s]}, 'write') } }, (item, _kh, { t, out }) => {
  const c = vec2u(item.getId(1), item.getId(0));
  out[c.y * ${W} + c.x] = textureLoad(t, c, 0);
});`,
  ),
  ...storageFormats.map((f) => {
    const v = VEC4[STORAGE_FORMATS[f]];
    return `export const store_${f} = kernel({ range: 2, args: { src: accessor(${v}, 'read'), dst: storageTexture2d('${f}', 'write') } }, (item, _kh, { src, dst }) => {
  const c = vec2u(item.getId(1), item.getId(0));
  dst.write(c, src[c.y * ${W} + c.x]!);
});
export const read_${f} = kernel({ range: 2, args: { t: storageTexture2d('${f}', 'read'), out: accessor(${v}, 'write') } }, (item, _kh, { t, out }) => {
  const c = vec2u(item.getId(1), item.getId(0));
  out[c.y * ${W} + c.x] = t.read(c);
});`;
  }),
  ...READ_WRITE_FORMATS.map(
    (
      f,
    ) => `export const twice_${f} = kernel({ range: 2, args: { t: storageTexture2d('${f}', 'read_write') } }, (item, _kh, { t }) => {
  const c = vec2u(item.getId(1), item.getId(0));
  const v = t.read(c);
  t.write(c, ${VEC4[STORAGE_FORMATS[f]]}(v.x + v.x, v.y, v.z, v.w));
});`,
  ),
].join('\n');

const VECTORS = { f32: vec4f, u32: vec4u, i32: vec4i } as const;
const SCALARS = { f32, u32, i32 } as const;
const vecOf = (s: 'f32' | 'u32' | 'i32') => VECTORS[s];
const kernels: Record<string, Kernel> = {};
for (const s of SAMPLE_TYPES) {
  kernels[`load_${s}`] = kernel(
    { range: 2, args: { t: texture2d(SCALARS[s]), out: accessor(vecOf(s), 'write') } },
    () => {},
  );
}
for (const f of storageFormats) {
  const v = vecOf(STORAGE_FORMATS[f]);
  kernels[`store_${f}`] = kernel(
    { range: 2, args: { src: accessor(v, 'read'), dst: storageTexture2d(f, 'write') } },
    () => {},
  );
  kernels[`read_${f}`] = kernel(
    { range: 2, args: { t: storageTexture2d(f, 'read'), out: accessor(v, 'write') } },
    () => {},
  );
}
for (const f of READ_WRITE_FORMATS) {
  kernels[`twice_${f}`] = kernel(
    { range: 2, args: { t: storageTexture2d(f, 'read_write') } },
    () => {},
  );
}
compileSources([{ module: 'src/formats.sycl.ts', source, exports: kernels }]);

/** Within the conversion error WebGPU allows a float format's load (exact for integers). */
function close(got: number, want: number, format: TextureFormat): boolean {
  if (TEXTURE_FORMATS[format][2] !== 'f32') return got === want;
  // WebGPU leaves the sRGB decoding's accuracy to the implementation: within half a level.
  if (format.endsWith('-srgb')) return Math.abs(got - want) <= 0.5 / 255;
  return Math.abs(got - want) <= Math.abs(want) * 2 ** -20 + 2 ** -24;
}

describe('textureLoad gives each format what the CPU decodes', () => {
  test.each(Object.keys(TEXTURE_FORMATS) as TextureFormat[])('%s', async (format) => {
    const q = await freshQueue();
    const data = randomTexels(format, 0xf0 + Object.keys(TEXTURE_FORMATS).indexOf(format));
    const t = q.texture({ format, size: [W, H] });
    t.write(data);
    const sampleType = TEXTURE_FORMATS[format][2];
    const out = q.buffer(vecOf(sampleType), N);
    q.parallelFor([H, W], kernels[`load_${sampleType}`] as never, { t, out } as never);
    const got = (await out.read()) as number[][];
    for (let i = 0; i < N; i++) {
      const want = decode(format, data, i);
      const ok = got[i]!.every((g, c) => close(g, want[c]!, format));
      expect(ok, `texel ${i}: ${got[i]} against ${want}`).toBe(true);
    }
  });
});

describe('storage formats store what a kernel writes, and load it back', () => {
  test.each(storageFormats)('%s', async (format) => {
    const q = await freshQueue();
    if (format === 'bgra8unorm' && !q.device.features.has('bgra8unorm-storage')) {
      console.log('[syclts] this device offers no bgra8unorm storage textures');
      return;
    }
    // Texels the format holds exactly, so the store is exact: their host bytes, then as values.
    const data = randomTexels(format, 0x5f0 + storageFormats.indexOf(format));
    if (format === 'rgba8snorm')
      for (let i = 0; i < data.length; i++) if (data[i] === 0x80) data[i] = 0x81;
    const values = Array.from({ length: N }, (_, i) => {
      const v = decode(format, data, i);
      return format.includes('16float') || format.includes('32float')
        ? v.map((x) => (format.includes('16') ? f16Round(x) : x))
        : v;
    });
    const scalar = STORAGE_FORMATS[format];
    const src = q.buffer(vecOf(scalar), values as never);
    const t = q.texture({ format, size: [W, H] });
    q.parallelFor([H, W], kernels[`store_${format}`] as never, { src, dst: t } as never);
    expect(Array.from(new Uint8Array((await t.read()).buffer))).toEqual(Array.from(data));
    const out = q.buffer(vecOf(scalar), N);
    q.parallelFor([H, W], kernels[`read_${format}`] as never, { t, out } as never);
    const loaded = (await out.read()) as number[][];
    for (let i = 0; i < N; i++) {
      const ok = loaded[i]!.every((g, c) => close(g, values[i]![c]!, format));
      expect(ok, `texel ${i}: ${loaded[i]} against ${values[i]}`).toBe(true);
    }
  });

  test.each(READ_WRITE_FORMATS)('%s read and written in place (read_write)', async (format) => {
    const q = await freshQueue();
    const data = randomTexels(format, 0x6f0 + READ_WRITE_FORMATS.indexOf(format));
    if (format === 'r32float') {
      const floats = new Float32Array(data.buffer);
      for (let i = 0; i < N; i++) floats[i] = Math.round(floats[i]!);
    }
    const t = q.texture({ format, size: [W, H] });
    t.write(data);
    q.parallelFor([H, W], kernels[`twice_${format}`] as never, { t } as never);
    const got = await t.read();
    const before =
      format === 'r32float'
        ? new Float32Array(data.buffer)
        : format === 'r32sint'
          ? new Int32Array(data.buffer)
          : new Uint32Array(data.buffer);
    const want = Array.from(before, (x) =>
      format === 'r32float' ? 2 * x : format === 'r32sint' ? (2 * x) | 0 : (2 * x) >>> 0,
    );
    expect(Array.from(got as ArrayLike<number>)).toEqual(want);
  });
});
