/**
 * `console.log` in device code on the adapter: every line of thousands of items against what the
 * test computes from fresh random inputs, in the native and emulated variants; a device function
 * that prints; an nd-range kernel's group and local ids; `wait()` returning only once the lines
 * are printed; lines past the log buffer counted and reported; the buffer size option.
 */
import { accessor, f32, i32, kernel, specializationId, u32 } from '@syclts/dsl';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { errc, ndRange } from '../src/index.js';
// What the footer of a module that prints imports.
import '../src/log.js';
import { enableProfiling, getProfilingInfo } from '../src/profiling.js';
import { compileSources } from './support/compile.js';
import { caught } from './support/errors.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

const M = 'src/log.sycl.ts';
const source = [
  "import { accessor, deviceFunction, f32, i32, kernel, specializationId, u32, vec2i } from '@syclts/dsl';",
  'export const gain = specializationId(i32, 3);',
  'const note = deviceFunction({ args: [i32] }, (y) => {',
  "  console.log('note', u32(y) & 7, y < 0);",
  '});',
  "export const many = kernel({ range: 1, args: { xs: accessor(f32, 'read'), ys: accessor(i32, 'read'), out: accessor(u32, 'write') } }, (item, kh, { xs, ys, out }) => {",
  '  const i = item.getId(0);',
  '  const y = ys[i]!;',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: device code's template literal
  '  console.log(`x=${xs[i]!}`, y * kh.getSpecializationConstant(gain), vec2i(y, -y));',
  '  if (y % 3 == 0) { note(y); }',
  '  out[i] = i;',
  '});',
  "export const grid = kernel({ ndRange: 2, workgroupSize: [2, 4], args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {",
  "  console.log('at', item.getGlobalLinearId());",
  '  out[item.getGlobalLinearId()] = 1;',
  '});',
  "export const each = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {",
  '  console.log(item.getId(0));',
  '  out[item.getId(0)] = 1;',
  '});',
].join('\n');

const gain = specializationId(i32, 3);
const many = kernel(
  {
    range: 1,
    args: { xs: accessor(f32, 'read'), ys: accessor(i32, 'read'), out: accessor(u32, 'write') },
  },
  () => {},
);
const grid = kernel(
  { ndRange: 2, workgroupSize: [2, 4], args: { out: accessor(u32, 'write') } },
  () => {},
);
const each = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, () => {});

beforeAll(() => {
  compileSources([{ module: M, source, exports: { gain, many, grid, each } }]);
});

let printed: string[] = [];
let warned: string[] = [];
beforeAll(() => {
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
    printed.push(String(line));
  });
  vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
    warned.push(String(line));
  });
});
afterEach(() => {
  printed = [];
  warned = [];
});

/** The lines of `many` over these inputs, in the order the runtime prints them. */
function expectedMany(xs: Float32Array, ys: Int32Array, factor: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < xs.length; i++) {
    const y = ys[i]!;
    // Eighths are exact in f32, and JavaScript prints them with the fewest digits.
    lines.push(`${M}:9:3 item ${i}: x=${xs[i]} ${Math.imul(y, factor)} vec2i(${y}, ${-y | 0})`);
    if (y % 3 === 0) lines.push(`${M}:4:3 item ${i}: note ${(y >>> 0) & 7} ${y < 0}`);
  }
  return lines;
}

describe.each(['native', 'emulated'] as const)('console.log, %s', (specConstants) => {
  test('every line of 3000 items, with a device function that prints', async () => {
    const q = await freshQueue({ specConstants });
    const n = 3000;
    const seed = randomU32(1, Date.now())[0]!;
    const xs = Float32Array.from(randomU32(n, seed), (r) => ((r % 200001) - 100000) / 8);
    const ys = Int32Array.from(randomU32(n, seed + 1), (r) => (r % 20001) - 10000);
    const factor = (randomU32(1, seed + 2)[0]! % 9) + 2;
    const out = q.buffer(new Uint32Array(n).fill(POISON));
    const args = { xs: q.buffer(xs), ys: q.buffer(ys), out };
    await q
      .submit((cgh) => {
        cgh.setSpecializationConstant(gain, factor);
        cgh.parallelFor(n, many, args);
      })
      .wait();
    expect(printed).toEqual(expectedMany(xs, ys, factor));
    expect(warned).toEqual([]);
    expect(Array.from(await out.read())).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  test("an nd-range kernel's lines name the group and local id; queue.wait() waits for them", async () => {
    const q = await freshQueue({ specConstants });
    q.parallelFor(ndRange([4, 8], [2, 4]), grid, { out: q.buffer(new Uint32Array(32)) });
    await q.wait();
    const want: string[] = [];
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 8; c++) {
        const g = `(${Math.floor(r / 2)}, ${Math.floor(c / 4)})`;
        want.push(
          `${M}:14:3 item (${r}, ${c}) (group ${g}, local (${r % 2}, ${c % 4})): at ${r * 8 + c}`,
        );
      }
    }
    expect(printed).toEqual(want);
  });
});

test("a profiled printing launch's times run from its kernel's start to its lines", async () => {
  const q = await freshQueue({ enableProfiling });
  const event = q.parallelFor(8, each, { out: q.buffer(new Uint32Array(8)) });
  await event.wait();
  expect(printed).toHaveLength(8);
  const { commandSubmit, commandStart, commandEnd } = await getProfilingInfo(event);
  expect(commandSubmit).toBeLessThanOrEqual(commandStart);
  expect(commandStart).toBeLessThan(commandEnd);
});

describe('the log buffer', () => {
  test('lines past its end are counted and reported', async () => {
    // 64 bytes: 2 words of head, then 14 words hold two records of 5 words.
    const q = await freshQueue({ logBufferSize: 64 });
    const n = 10 + (randomU32(1, Date.now())[0]! % 50);
    await q.parallelFor(n, each, { out: q.buffer(new Uint32Array(n)) }).wait();
    expect(printed).toHaveLength(2);
    for (const line of printed) expect(line).toMatch(new RegExp(`^${M}:18:3 item (\\d+): \\1$`));
    expect(warned).toEqual([
      `${M}#each: ${n - 2} console.log lines of this launch did not fit its log buffer (64 bytes) and were lost: give the queue a larger one, Queue.create({ logBufferSize })`,
    ]);
  });

  test('a larger one holds every line', async () => {
    const n = 5000;
    const q = await freshQueue({ logBufferSize: n * 20 + 8 });
    await q.parallelFor(n, each, { out: q.buffer(new Uint32Array(n)) }).wait();
    expect(printed).toEqual(Array.from({ length: n }, (_, i) => `${M}:18:3 item ${i}: ${i}`));
    expect(warned).toEqual([]);
  });

  test.each([63, 66, 0, 1.5, Number.NaN, 2 ** 40])('logBufferSize %s is refused', async (size) => {
    const q = await freshQueue({ logBufferSize: size });
    const most = q.device.limits.maxStorageBufferBindingSize;
    const error = caught(() => q.parallelFor(4, each, { out: q.buffer(new Uint32Array(4)) }));
    expect(error.errc).toBe(errc.invalid);
    expect(error.message).toBe(
      `queue.parallelFor: logBufferSize must be a multiple of 4 bytes from 64 to the device's maxStorageBufferBindingSize (${most}), got ${size}`,
    );
    expect(printed).toEqual([]);
  });
});
