/**
 * A failed command's outputs are never read as data: a read or copy back of a buffer or device
 * global it wrote (or that a command reading its output wrote) throws its error, naming it,
 * while what does not depend on it reads as usual.
 */
import { accessor, array, deviceGlobal, kernel, plus, reduction, span, u32 } from '@syclts/dsl';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { errc } from '../src/index.js';
// What the footer of a module declaring reductions imports.
import '../src/groups.js';
import { compileSources } from './support/compile.js';
import { rejected } from './support/errors.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

/** The failing kernel in a module of its own: a WGSL error fails its module's every pipeline. */
const brokenSource = [
  "import { accessor, array, deviceFunction, deviceGlobal, kernel, u32, wgsl } from '@syclts/dsl';",
  'export const tally = deviceGlobal(array(u32, 4));',
  // Returns a vector where it promised a u32: only the GPU compiler sees it.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: device source text
  'const widen = deviceFunction({ args: [u32], returns: u32 }, (x) => wgsl`return vec3u(${x});`);',
  "export const bad = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => { const i = item.getId(0); out[i] = widen(i); tally.value[i % 4] = i; });",
].join('\n');
const source = [
  "import { accessor, array, deviceGlobal, kernel, u32 } from '@syclts/dsl';",
  'export const other = deviceGlobal(array(u32, 4));',
  "export const mark = kernel({ range: 1, args: { out: accessor(u32, 'write'), v: u32 } }, (item, _kh, { out, v }) => { const i = item.getId(0); out[i] = v ^ i; });",
  "export const twice = kernel({ range: 1, args: { src: accessor(u32, 'read'), dst: accessor(u32, 'write') } }, (item, _kh, { src, dst }) => { const i = item.getId(0); dst[i] = src[i]! * 2; });",
  'export const count = kernel({ range: 1, args: { v: u32 } }, (item, _kh, { v }) => { const i = item.getId(0); if (i < 4) { other.value[i] = v + i; } });',
].join('\n');
/** A span reduction into a device global, in a module whose WGSL does not compile. */
const brokenReductionSource = [
  "import { array, deviceFunction, deviceGlobal, kernel, plus, reduction, span, u32, wgsl } from '@syclts/dsl';",
  'export const held = deviceGlobal(array(u32, 4));',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: device source text
  'const widen = deviceFunction({ args: [u32], returns: u32 }, (x) => wgsl`return vec3u(${x});`);',
  'export const badSum = kernel({ range: 1, args: { bins: reduction(span(u32, 4), plus) } }, (item, _kh, { bins }) => { const i = item.getId(0); bins[i % 4]!.combine(widen(i)); });',
].join('\n');
const held = deviceGlobal(array(u32, 4));
const badSum = kernel({ range: 1, args: { bins: reduction(span(u32, 4), plus) } }, () => {});
const tally = deviceGlobal(array(u32, 4));
const other = deviceGlobal(array(u32, 4));
const bad = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, () => {});
const mark = kernel({ range: 1, args: { out: accessor(u32, 'write'), v: u32 } }, () => {});
const twice = kernel(
  { range: 1, args: { src: accessor(u32, 'read'), dst: accessor(u32, 'write') } },
  () => {},
);
const count = kernel({ range: 1, args: { v: u32 } }, () => {});

beforeAll(() => {
  compileSources([
    { module: 'src/broken.sycl.ts', source: brokenSource, exports: { tally, bad } },
    {
      module: 'src/broken-reduction.sycl.ts',
      source: brokenReductionSource,
      exports: { held, badSum },
    },
    { module: 'src/stale.sycl.ts', source, exports: { other, mark, twice, count } },
  ]);
});

/** What `mark` writes with `v` into 8 elements. */
const marked = (v: number) => Array.from({ length: 8 }, (_, i) => (v ^ i) >>> 0);
/** The failed pipeline's error as the read of an output of it gives it (`api` reads it). */
const failedBad = (api: string) =>
  new RegExp(
    `^${api}: it reads what a failed command wrote: src/broken\\.sycl\\.ts:3:\\d+: error: [\\s\\S]*\\nkernel src/broken\\.sycl\\.ts#bad: creating its (native|emulated) pipeline failed`,
  );

describe('a failed launch fails the reads of what it wrote, and nothing else', () => {
  test('a buffer it writes, and one written from it, throw its error; an independent buffer reads its data', async () => {
    const q = await freshQueue();
    const [v, w] = randomU32(2, 511);
    const a = q.buffer(new Uint32Array(8).fill(POISON), { label: 'a' });
    const b = q.buffer(new Uint32Array(8).fill(POISON), { label: 'b' });
    const c = q.buffer(new Uint32Array(8).fill(POISON), { label: 'c' });
    const failing = q.parallelFor(8, bad, { out: a });
    const good = q.parallelFor(8, mark, { out: b, v: w! });
    // Issued while `bad`'s pipeline is still being created: it fails in its turn, not run.
    const derived = q.parallelFor(8, twice, { src: a, dst: c });
    await vi.waitFor(() => expect(failing.status).toBe('failed'), { timeout: 10_000 });
    // Its error observed by no one yet, a read of an independent buffer returns its data.
    expect(Array.from(await b.read())).toEqual(marked(w!));
    const fromA = await rejected(() => a.read());
    expect(fromA.errc).toBe(errc.build);
    expect(fromA.message).toMatch(failedBad('a\\.read\\(\\)'));
    await good.wait();
    const own = await rejected(() => failing.wait());
    expect(own.errc).toBe(errc.build);
    expect(own.message).toMatch(/\nkernel src\/broken\.sycl\.ts#bad: creating its/);
    const fromC = await rejected(() => c.read());
    expect(fromC.message).toMatch(/^c\.read\(\): it reads what a failed command wrote: /);
    expect(fromC.message).toContain('kernel src/broken.sycl.ts#bad: creating its');
    const notRun = await rejected(() => derived.wait());
    expect(notRun.errc).toBe(errc.build);
    expect(notRun.message).toMatch(
      /^src\/stale\.sycl\.ts#twice: it reads what a failed command wrote: src\/broken\.sycl\.ts:3:/,
    );
    // A launch that writes `a` without reading it starts it afresh; the error is not raised again.
    q.parallelFor(8, mark, { out: a, v: v! });
    expect(Array.from(await a.read())).toEqual(marked(v!));
    q.parallelFor(8, twice, { src: a, dst: c });
    expect(Array.from(await c.read())).toEqual(marked(v!).map((x) => (x * 2) >>> 0));
    await q.wait();
  });

  test('a device global it uses throws its error on a copy back; another global copies back its data', async () => {
    const q = await freshQueue();
    const values = Array.from(randomU32(4, 512));
    const [v] = randomU32(1, 513);
    const out = q.buffer(new Uint32Array(8).fill(POISON));
    q.parallelFor(8, bad, { out });
    q.parallelFor(8, count, { v: v! });
    const stale = new Array<number>(4).fill(POISON);
    const error = await rejected(() => q.copy(tally, stale).wait());
    expect(error.errc).toBe(errc.build);
    expect(error.message).toMatch(failedBad('queue\\.copy\\(src/broken\\.sycl\\.ts#tally\\)'));
    expect(stale).toEqual([POISON, POISON, POISON, POISON]);
    const counted = new Uint32Array(4).fill(POISON);
    await q.copy(other, counted).wait();
    expect(Array.from(counted)).toEqual([0, 1, 2, 3].map((i) => (v! + i) >>> 0));
    // A host copy into the global starts it afresh.
    q.copy(values, tally);
    const back = new Uint32Array(4).fill(POISON);
    await q.copy(tally, back).wait();
    expect(Array.from(back)).toEqual(values);
  });

  test('a reduction that fails leaves the device global it would replace as it was', async () => {
    const q = await freshQueue();
    const start = Array.from(randomU32(4, 514));
    const [x] = randomU32(1, 515);
    await q.copy(start, held).wait();
    const launch = q.parallelFor(64, badSum, {
      bins: { deviceGlobal: held, initializeToIdentity: true },
    });
    const error = await rejected(() => launch.wait());
    expect(error.errc).toBe(errc.build);
    expect(error.message).toContain('src/broken-reduction.sycl.ts');
    // The kernel's own failure, behind the finisher's and the copy's, is raised once more here.
    await q.wait().catch(() => {});
    // A host copy of one element makes the global readable again: the others are what it held,
    // not what the failed reduction's unwritten result buffer held.
    q.copy([x!], held, 1);
    const back = new Uint32Array(4).fill(POISON);
    await q.copy(held, back).wait();
    expect(Array.from(back)).toEqual([x, ...start.slice(1)]);
  });
});
