/**
 * Textures as kernel arguments (SYCL's images), on the adapter: every texture kind and access
 * the device offers against CPU references on fresh random images, the host's writes, reads and
 * copies ordered with the kernels, and the arguments' checks.
 */
import '../src/textures.js';
import {
  accessor,
  f32,
  kernel,
  sampler,
  storageTexture1d,
  storageTexture2d,
  storageTexture2dArray,
  storageTexture3d,
  texture1d,
  texture2d,
  texture2dArray,
  texture3d,
  textureCube,
  textureCubeArray,
  u32,
  vec2f,
  vec3f,
  vec4f,
  vec4u,
} from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { errc } from '../src/index.js';
import { compileSources } from './support/compile.js';
import { caught, rejected } from './support/errors.js';
import { freshQueue, randomU32 } from './support/gpu.js';

const source = `
import {
  accessor, kernel, sampler, storageTexture2d, storageTexture2dArray, storageTexture3d, texture2d,
  texture2dArray, texture3d, textureCube, u32, i32, f32, vec2f, vec2i, vec2u, vec3f, vec3u, vec4f, vec4u,
  textureDimensions, textureLoad, textureStore, textureSampleLevel, textureGather, textureNumLayers,
  textureSampleBaseClampToEdge,
} from '@syclts/dsl';

export const invert = kernel(
  { range: 2, args: { src: texture2d(f32), dst: storageTexture2d('rgba8unorm', 'write') } },
  (item, _kh, { src, dst }) => {
    const c = vec2u(item.getId(1), item.getId(0));
    const v = src.read(c);
    dst.write(c, vec4f(1 - v.r, 1 - v.g, 1 - v.b, v.a));
  },
);

export const words = kernel(
  { range: 2, args: { src: texture2d(u32), out: accessor(u32, 'write') } },
  (item, _kh, { src, out }) => {
    const size = textureDimensions(src);
    const x = item.getId(1);
    const y = item.getId(0);
    out[y * size.x + x] = textureLoad(src, vec2i(i32(x), i32(y)), 0).x * 3 + size.x * 1000 + size.y;
  },
);

export const bump = kernel(
  { range: 2, args: { t: storageTexture2d('r32float', 'read_write') } },
  (item, _kh, { t }) => {
    const c = vec2u(item.getId(1), item.getId(0));
    t.write(c, vec4f(t.read(c).x * 2 + 1, 0, 0, 1));
  },
);

export const sampled = kernel(
  { range: 1, args: { src: texture2d(f32), smp: sampler(), uv: accessor(vec2f, 'read'), out: accessor(vec4f, 'write') } },
  (item, _kh, { src, smp, uv, out }) => {
    const i = item.getId(0);
    out[i] = textureSampleLevel(src, smp, uv[i]!, 0);
  },
);

export const clampSampled = kernel(
  { range: 1, args: { src: texture2d(f32), smp: sampler(), uv: accessor(vec2f, 'read'), out: accessor(vec4f, 'write') } },
  (item, _kh, { src, smp, uv, out }) => {
    const i = item.getId(0);
    out[i] = textureSampleBaseClampToEdge(src, smp, uv[i]!);
  },
);

export const gathered = kernel(
  { range: 1, args: { src: texture2d(u32), smp: sampler(), uv: accessor(vec2f, 'read'), out: accessor(vec4u, 'write') } },
  (item, _kh, { src, smp, uv, out }) => {
    const i = item.getId(0);
    out[i] = textureGather(0, src, smp, uv[i]!);
  },
);

export const layers = kernel(
  { range: 3, args: { src: texture2dArray(u32), dst: storageTexture2dArray('r32uint', 'write') } },
  (item, _kh, { src, dst }) => {
    const c = vec2u(item.getId(2), item.getId(1));
    const layer = item.getId(0);
    const v = textureLoad(src, c, layer, 0).x;
    textureStore(dst, c, textureNumLayers(src) - 1 - layer, vec4u(v + layer, 0, 0, 1));
  },
);

export const volume = kernel(
  { range: 3, args: { src: texture3d(f32), dst: storageTexture3d('rgba32float', 'write') } },
  (item, _kh, { src, dst }) => {
    const c = vec3u(item.getId(2), item.getId(1), item.getId(0));
    const v = src.read(c);
    dst.write(c, vec4f(v.x + v.y, v.y * 2, f32(textureDimensions(src).z), v.w));
  },
);

export const faces = kernel(
  { range: 1, args: { cube: textureCube(f32), smp: sampler(), dirs: accessor(vec3f, 'read'), out: accessor(vec4f, 'write') } },
  (item, _kh, { cube, smp, dirs, out }) => {
    const i = item.getId(0);
    out[i] = textureSampleLevel(cube, smp, dirs[i]!, 0);
  },
);
`;

const invert = kernel(
  { range: 2, args: { src: texture2d(f32), dst: storageTexture2d('rgba8unorm', 'write') } },
  () => {},
);
const words = kernel(
  { range: 2, args: { src: texture2d(u32), out: accessor(u32, 'write') } },
  () => {},
);
const bump = kernel(
  { range: 2, args: { t: storageTexture2d('r32float', 'read_write') } },
  () => {},
);
const sampledArgs = {
  src: texture2d(f32),
  smp: sampler(),
  uv: accessor(vec2f, 'read'),
  out: accessor(vec4f, 'write'),
};
const sampled = kernel({ range: 1, args: sampledArgs }, () => {});
const clampSampled = kernel({ range: 1, args: sampledArgs }, () => {});
const gathered = kernel(
  {
    range: 1,
    args: {
      src: texture2d(u32),
      smp: sampler(),
      uv: accessor(vec2f, 'read'),
      out: accessor(vec4u, 'write'),
    },
  },
  () => {},
);
const layers = kernel(
  { range: 3, args: { src: texture2dArray(u32), dst: storageTexture2dArray('r32uint', 'write') } },
  () => {},
);
const volume = kernel(
  { range: 3, args: { src: texture3d(f32), dst: storageTexture3d('rgba32float', 'write') } },
  () => {},
);
const faces = kernel(
  {
    range: 1,
    args: {
      cube: textureCube(f32),
      smp: sampler(),
      dirs: accessor(vec3f, 'read'),
      out: accessor(vec4f, 'write'),
    },
  },
  () => {},
);
compileSources([
  {
    module: 'src/textures.sycl.ts',
    source,
    exports: { invert, words, bump, sampled, clampSampled, gathered, layers, volume, faces },
  },
]);

const bytes = (count: number, seed: number) =>
  new Uint8Array(randomU32(count, seed).buffer, 0, count);

describe('textures in kernels', () => {
  test('rgba8unorm in through read(), out through write(): each channel inverted', async () => {
    const q = await freshQueue();
    const [w, h] = [13, 7];
    const pixels = bytes(w * h * 4, 0x7e1);
    const src = q.texture({ format: 'rgba8unorm', size: [w, h] });
    src.write(pixels);
    const dst = q.texture({ format: 'rgba8unorm', size: [w, h] });
    dst.write(new Uint8Array(w * h * 4).fill(0x5a));
    q.parallelFor([h, w], invert, { src, dst });
    const out = await dst.read();
    expect(out).toBeInstanceOf(Uint8ClampedArray);
    expect(Array.from(out)).toEqual(Array.from(pixels, (b, i) => (i % 4 === 3 ? b : 255 - b)));
  });

  test('r32uint texels through textureLoad and textureDimensions into a buffer', async () => {
    const q = await freshQueue();
    const [w, h] = [9, 5];
    const texels = randomU32(w * h, 0x7e2).map((x) => x >>> 4);
    const src = q.texture({ format: 'r32uint', size: [w, h] });
    src.write(texels);
    const out = q.buffer(u32, new Uint32Array(w * h).fill(0xdeadbeef));
    q.parallelFor([h, w], words, { src, out });
    expect(Array.from(await out.read())).toEqual(
      Array.from(texels, (t) => (t * 3 + w * 1000 + h) >>> 0),
    );
  });

  test('a read_write r32float storage texture, read and written in place', async () => {
    const q = await freshQueue();
    const [w, h] = [6, 4];
    const values = Float32Array.from(randomU32(w * h, 0x7e3), (x) => (x % 2000) / 8 - 100);
    const t = q.texture({ format: 'r32float', size: [w, h] });
    t.write(values);
    q.parallelFor([h, w], bump, { t });
    expect(Array.from(await t.read())).toEqual(Array.from(values, (v) => v * 2 + 1));
  });

  test('textureSampleLevel: nearest at random points, linear between texel centres', async () => {
    const q = await freshQueue();
    const [w, h] = [8, 8];
    const pixels = bytes(w * h * 4, 0x7e4);
    const src = q.texture({ format: 'rgba8unorm', size: [w, h] });
    src.write(pixels);
    const n = 40;
    const draws = randomU32(2 * n, 0x7e5);
    const points = Array.from({ length: n }, (_, i) => [
      (draws[2 * i]! % 1000) / 1000,
      (draws[2 * i + 1]! % 1000) / 1000,
    ]);
    const uv = q.buffer(vec2f, points as [number, number][]);
    const out = q.buffer(vec4f, n);
    q.parallelFor(n, sampled, { src, smp: q.sampler(), uv, out });
    const texel = (x: number, y: number) =>
      [0, 1, 2, 3].map((c) => pixels[(y * w + x) * 4 + c]! / 255);
    const nearest = await out.read();
    points.forEach(([u, v], i) => {
      const want = texel(Math.min(w - 1, Math.floor(u! * w)), Math.min(h - 1, Math.floor(v! * h)));
      expect(nearest[i]!.map((x) => Math.round(x * 255))).toEqual(
        want.map((x) => Math.round(x * 255)),
      );
    });
    // Halfway between the centres of texels (x, y) and (x + 1, y): their mean.
    const mids = Array.from({ length: 7 }, (_, x) => [(x + 1) / w, (2 * (x % h) + 1) / (2 * h)]);
    const midUv = q.buffer(vec2f, mids as [number, number][]);
    const midOut = q.buffer(vec4f, mids.length);
    const linear = q.sampler({ magFilter: 'linear', minFilter: 'linear' });
    q.parallelFor(mids.length, clampSampled, { src, smp: linear, uv: midUv, out: midOut });
    const got = await midOut.read();
    mids.forEach((_, x) => {
      const y = x % h;
      const want = texel(x, y).map((a, c) => (a + texel(x + 1, y)[c]!) / 2);
      for (const [c, g] of got[x]!.entries()) {
        expect(Math.abs(g - want[c]!)).toBeLessThan(1.5 / 255);
      }
    });
  });

  test('textureGather of an r32uint texture: the four texels around a point', async () => {
    const q = await freshQueue();
    const [w, h] = [4, 4];
    const texels = randomU32(w * h, 0x7e6);
    const src = q.texture({ format: 'r32uint', size: [w, h] });
    src.write(texels);
    // At the corner shared by texels (1, 1), (2, 1), (1, 2), (2, 2).
    const uv = q.buffer(vec2f, [[2 / w, 2 / h]]);
    const out = q.buffer(vec4u, 1);
    q.parallelFor(1, gathered, { src, smp: q.sampler(), uv, out });
    const at = (x: number, y: number) => texels[y * w + x]!;
    // WGSL's order: (x0, y1), (x1, y1), (x1, y0), (x0, y0).
    expect((await out.read())[0]).toEqual([at(1, 2), at(2, 2), at(2, 1), at(1, 1)]);
  });

  test('a 2d-array texture read by layer, written to the mirrored layer', async () => {
    const q = await freshQueue();
    const [w, h, n] = [5, 3, 4];
    const texels = randomU32(w * h * n, 0x7e7).map((x) => x >>> 8);
    const src = q.texture({ format: 'r32uint', size: [w, h, n] });
    expect(src.dimension).toBe('2d-array');
    src.write(texels);
    const dst = q.texture({ format: 'r32uint', size: [w, h, n] });
    dst.write(new Uint32Array(w * h * n).fill(0xdeadbeef));
    q.parallelFor([n, h, w], layers, { src, dst });
    const out = await dst.read();
    const want = new Uint32Array(w * h * n);
    for (let l = 0; l < n; l++) {
      for (let i = 0; i < w * h; i++) want[(n - 1 - l) * w * h + i] = texels[l * w * h + i]! + l;
    }
    expect(Array.from(out)).toEqual(Array.from(want));
  });

  test('a 3d texture in, a 3d rgba32float storage texture out', async () => {
    const q = await freshQueue();
    const [w, h, d] = [4, 3, 5];
    const values = Float32Array.from(randomU32(w * h * d * 4, 0x7e8), (x) => (x % 1024) / 4);
    const src = q.texture({ format: 'rgba32float', size: [w, h, d], dimension: '3d' });
    src.write(values);
    const dst = q.texture({ format: 'rgba32float', size: [w, h, d], dimension: '3d' });
    q.parallelFor([d, h, w], volume, { src, dst });
    const out = await dst.read();
    const want = new Float32Array(values.length);
    for (let i = 0; i < w * h * d; i++) {
      const [x, y, , a] = values.subarray(4 * i, 4 * i + 4);
      want.set([x! + y!, y! * 2, d, a!], 4 * i);
    }
    expect(Array.from(out)).toEqual(Array.from(want));
  });

  test('a cube texture sampled along each axis gives that face', async () => {
    const q = await freshQueue();
    const size = 4;
    const colours = Array.from(bytes(6 * 4, 0x7e9));
    const cube = q.texture({ format: 'rgba8unorm', size: [size, size, 6], dimension: 'cube' });
    const faceData = new Uint8Array(size * size * 6 * 4);
    for (let f = 0; f < 6; f++) {
      for (let i = 0; i < size * size; i++)
        faceData.set(colours.slice(4 * f, 4 * f + 4), (f * size * size + i) * 4);
    }
    cube.write(faceData);
    const axes = [
      [1, 0, 0],
      [-1, 0, 0],
      [0, 1, 0],
      [0, -1, 0],
      [0, 0, 1],
      [0, 0, -1],
    ];
    const dirs = q.buffer(vec3f, axes as [number, number, number][]);
    const out = q.buffer(vec4f, 6);
    q.parallelFor(6, faces, { cube, smp: q.sampler(), dirs, out });
    const got = await out.read();
    for (const [f, texel] of got.entries()) {
      expect(texel.map((x) => Math.round(x * 255))).toEqual(colours.slice(4 * f, 4 * f + 4));
    }
  });
});

describe('texture arguments, checked', () => {
  test('a texture of another format, shape or kind is refused, naming the argument', async () => {
    const q = await freshQueue();
    const r32 = q.texture({ format: 'r32float', size: [2, 2] });
    const rgba = q.texture({ format: 'rgba8unorm', size: [2, 2] });
    const layered = q.texture({ format: 'rgba8unorm', size: [2, 2, 2] });
    const cases: [unknown, string][] = [
      [
        () => q.parallelFor([2, 2], invert, { src: r32, dst: r32 }),
        "kernel src/textures.sycl.ts#invert, argument 'dst': the kernel declares format rgba8unorm; this texture is r32float",
      ],
      [
        () => q.parallelFor([2, 2], invert, { src: layered, dst: rgba }),
        "kernel src/textures.sycl.ts#invert, argument 'src': the kernel declares a 2d texture; this one is 2d-array",
      ],
      [
        () => q.parallelFor([2, 2], words, { src: rgba, out: q.buffer(u32, 4) }),
        "kernel src/textures.sycl.ts#words, argument 'src': the kernel reads u32 texels; a rgba8unorm texture gives f32",
      ],
      [
        () => q.parallelFor([2, 2], invert, { src: q.buffer(u32, 4) as never, dst: rgba }),
        "kernel src/textures.sycl.ts#invert, argument 'src': expected a texture (queue.texture(...)), got",
      ],
    ];
    for (const [run, message] of cases) {
      const error = caught(run as () => unknown);
      expect(error.errc).toBe(errc.kernelArgument);
      expect(error.message).toContain(message);
    }
  });

  test('a sampler argument takes a GPUSampler only', async () => {
    const q = await freshQueue();
    const src = q.texture({ format: 'rgba8unorm', size: [2, 2] });
    const error = caught(() =>
      q.parallelFor(1, sampled, {
        src,
        smp: {} as GPUSampler,
        uv: q.buffer(vec2f, 1),
        out: q.buffer(vec4f, 1),
      }),
    );
    expect(error.errc).toBe(errc.kernelArgument);
    expect(error.message).toMatch(/argument 'smp': expected a GPUSampler/);
  });

  test('a destroyed texture is refused; its reads and writes are errors', async () => {
    const q = await freshQueue();
    const t = q.texture({ format: 'rgba8unorm', size: [2, 2] });
    t.destroy();
    expect(caught(() => t.write(new Uint8Array(16))).message).toMatch(
      /^texture\.write: texture \d+ was destroyed$/,
    );
    expect(caught(() => q.parallelFor([2, 2], invert, { src: t, dst: t })).message).toContain(
      "argument 'src': the texture was destroyed",
    );
    expect((await rejected(() => t.read())).errc).toBe(errc.invalid);
  });

  test('host writes and reads: sizes and regions are checked', async () => {
    const q = await freshQueue();
    const t = q.texture({ format: 'rgba16float', size: [4, 3] });
    expect(caught(() => t.write(new Uint16Array(5))).message).toBe(
      'texture.write: 4 x 3 x 1 texels of rgba16float take 96 bytes; got 10',
    );
    expect(
      caught(() => t.write(new Uint16Array(16), { origin: [2, 2], size: [2, 2] })).message,
    ).toMatch(/is outside texture \d+ of \[4, 3, 1\] at mip level 0/);
    const halves = new Uint16Array(randomU32(8, 0x7ea).map((x) => x & 0x3bff));
    t.write(halves, { origin: [1, 1], size: [2, 1] });
    expect(Array.from(await t.read({ origin: [1, 1], size: [2, 1] }))).toEqual(Array.from(halves));
  });

  test('queue.texture wraps a GPUTexture made elsewhere, without a copy', async () => {
    const q = await freshQueue();
    const gpu = q.device.createTexture({
      format: 'r32uint',
      size: [3, 2],
      // TEXTURE_BINDING | COPY_DST | COPY_SRC
      usage: 0x04 | 0x02 | 0x01,
    });
    const texels = randomU32(6, 0x7eb).map((x) => x >>> 4);
    q.device.queue.writeTexture({ texture: gpu }, texels, { bytesPerRow: 12 }, [3, 2]);
    const t = q.texture(gpu);
    expect(t.gpuTexture).toBe(gpu);
    const out = q.buffer(u32, 6);
    q.parallelFor([2, 3], words, { src: t, out });
    expect(Array.from(await out.read())).toEqual(
      Array.from(texels, (x) => (x * 3 + 3000 + 2) >>> 0),
    );
  });

  test('queue.buffer wraps a GPUBuffer made elsewhere; one without STORAGE usage is refused', async () => {
    const q = await freshQueue();
    // STORAGE | COPY_SRC | COPY_DST
    const gpu = q.device.createBuffer({ size: 4 * 6, usage: 0x80 | 0x04 | 0x08 });
    const out = q.buffer(gpu, u32);
    expect(out.gpuBuffer).toBe(gpu);
    expect(out.length).toBe(6);
    const texels = randomU32(6, 0x7ec).map((x) => x >>> 4);
    const src = q.texture({ format: 'r32uint', size: [3, 2] });
    src.write(texels);
    q.parallelFor([2, 3], words, { src, out });
    expect(Array.from(await out.read())).toEqual(
      Array.from(texels, (x) => (x * 3 + 3000 + 2) >>> 0),
    );
    const plain = q.device.createBuffer({ size: 16, usage: 0x04 | 0x08 });
    const error = caught(() => q.buffer(plain, u32));
    expect(error.errc).toBe(errc.invalid);
    expect(error.message).toBe('queue.buffer: the GPUBuffer has no STORAGE usage');
  });
});

const shapesSource = `
import {
  accessor, kernel, sampler, storageTexture1d, texture1d, texture2d, texture2dArray, textureCubeArray,
  f32, u32, vec2f, vec2u, vec3f, vec4f, vec4u, textureDimensions, textureLoad, textureNumLevels,
  textureSampleGrad, textureSampleLevel,
} from '@syclts/dsl';

export const levels = kernel(
  { range: 1, args: { t: texture2d(f32), line: texture1d(u32), out: accessor(vec4f, 'write'), counts: accessor(u32, 'write') } },
  (item, _kh, { t, line, out, counts }) => {
    const i = item.getId(0);
    out[i] = textureLoad(t, vec2u(i, 1), 1);
    counts[i] = textureLoad(line, i, 0).x + textureNumLevels(t) * 1000 + textureDimensions(t, 1).x * 100000;
  },
);

export const line = kernel(
  { range: 1, args: { dst: storageTexture1d('r32uint', 'write') } },
  (item, _kh, { dst }) => {
    const i = item.getId(0);
    dst.write(i, vec4u(i * 7 + 1, 0, 0, 1));
  },
);

export const layered = kernel(
  { range: 1, args: { t: texture2dArray(f32), cubes: textureCubeArray(f32), smp: sampler(), out: accessor(vec4f, 'write') } },
  (item, _kh, { t, cubes, smp, out }) => {
    out[0] = textureSampleGrad(t, smp, vec2f(0.5, 0.5), 1, vec2f(0, 0), vec2f(0, 0));
    out[1] = textureSampleLevel(cubes, smp, vec3f(0, 0, 1), 1, 0);
  },
);
`;
const levels = kernel(
  {
    range: 1,
    args: {
      t: texture2d(f32),
      line: texture1d(u32),
      out: accessor(vec4f, 'write'),
      counts: accessor(u32, 'write'),
    },
  },
  () => {},
);
const line = kernel({ range: 1, args: { dst: storageTexture1d('r32uint', 'write') } }, () => {});
const layered = kernel(
  {
    range: 1,
    args: {
      t: texture2dArray(f32),
      cubes: textureCubeArray(f32),
      smp: sampler(),
      out: accessor(vec4f, 'write'),
    },
  },
  () => {},
);
compileSources([
  { module: 'src/shapes.sycl.ts', source: shapesSource, exports: { levels, line, layered } },
]);

describe('1d textures, mip levels, array and cube-array textures', () => {
  test('mip level 1 written and loaded; textureNumLevels, textureDimensions(t, 1); a 1d texture', async () => {
    const q = await freshQueue();
    const t = q.texture({ format: 'rgba32float', size: [4, 4], mipLevelCount: 2 });
    const level1 = Float32Array.from(randomU32(2 * 2 * 4, 0x7f1), (x) => (x % 4096) / 16);
    t.write(new Float32Array(4 * 4 * 4).fill(-1));
    t.write(level1, { mipLevel: 1 });
    const n = 2;
    const words = randomU32(n, 0x7f2).map((x) => x % 1000);
    const lineTexture = q.texture({ format: 'r32uint', size: [n], dimension: '1d' });
    lineTexture.write(words);
    const out = q.buffer(vec4f, n);
    const counts = q.buffer(u32, new Uint32Array(n).fill(0xdeadbeef));
    q.parallelFor(n, levels, { t, line: lineTexture, out, counts });
    // Row 1 of the 2 x 2 level.
    expect((await out.read()).flat()).toEqual(Array.from(level1.subarray(8, 16)));
    expect(Array.from(await counts.read())).toEqual(Array.from(words, (w) => w + 2000 + 200000));
  });

  test('a 1d storage texture written by a kernel', async () => {
    const q = await freshQueue();
    const n = 37;
    const dst = q.texture({ format: 'r32uint', size: [n], dimension: '1d' });
    dst.write(new Uint32Array(n).fill(0xdeadbeef));
    q.parallelFor(n, line, { dst });
    expect(Array.from(await dst.read())).toEqual(Array.from({ length: n }, (_, i) => i * 7 + 1));
  });

  test('textureSampleGrad of a layer, textureSampleLevel of a cube in a cube array', async () => {
    const q = await freshQueue();
    const colours = Array.from(bytes(12 * 4, 0x7f3));
    const fill = (layers: number, size: number) => {
      const data = new Uint8Array(size * size * layers * 4);
      for (let l = 0; l < layers; l++) {
        for (let i = 0; i < size * size; i++)
          data.set(colours.slice(4 * l, 4 * l + 4), (l * size * size + i) * 4);
      }
      return data;
    };
    const t = q.texture({ format: 'rgba8unorm', size: [2, 2, 3] });
    t.write(fill(3, 2));
    const cubes = q.texture({ format: 'rgba8unorm', size: [2, 2, 12], dimension: 'cube-array' });
    cubes.write(fill(12, 2));
    const out = q.buffer(vec4f, 2);
    q.parallelFor(1, layered, { t, cubes, smp: q.sampler(), out });
    const [fromLayer, fromCube] = (await out.read()).map((v) => v.map((x) => Math.round(x * 255)));
    expect(fromLayer).toEqual(colours.slice(4, 8));
    // +z is face 4; cube 1 starts at layer 6.
    expect(fromCube).toEqual(colours.slice(40, 44));
  });
});
