/**
 * The convolution example in Node: filters a PNG with each filter, on the native path (a pipeline
 * per filter, coefficients as literals) and on the emulated one (one pipeline, coefficients in a
 * buffer), checks every output against the CPU, writes the filtered PNGs and prints a summary.
 *
 *   node dist/node/main.mjs [--input FILE.png | --size N] [--out-dir DIR] [--repeat R] [--json]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Queue } from '@syclts/runtime';
import { decode, encode } from 'fast-png';
import { Convolver } from './convolver.ts';
import {
  convolveOnCpu,
  FILTER_NAMES,
  FILTERS,
  type FilterName,
  type Image,
  maxDifference,
  TOLERANCE,
} from './filters.ts';
import { fromRgba8, sceneImage, toRgba8 } from './image.ts';

const { values: flags } = parseArgs({
  options: {
    input: { type: 'string' },
    size: { type: 'string' },
    'out-dir': { type: 'string', default: 'out' },
    repeat: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});

/** The PNG shipped beside the example (this file is dist/node/main.mjs once bundled). */
const SHIPPED_INPUT = new URL('../../assets/input.png', import.meta.url);

function loadInput(): { image: Image; source: string } {
  if (flags.size !== undefined) {
    const size = positiveInteger('--size', flags.size);
    return { image: sceneImage(size, size), source: 'generated scene' };
  }
  const file = flags.input ?? SHIPPED_INPUT;
  const png = decode(readFileSync(file));
  if (png.depth !== 8 || png.channels < 3) {
    throw new Error(`${String(file)}: expected an 8-bit RGB or RGBA PNG`);
  }
  const rgba = new Uint8Array(png.width * png.height * 4);
  for (let p = 0; p < png.width * png.height; p++) {
    for (let c = 0; c < 4; c++) {
      rgba[p * 4 + c] = c < png.channels ? png.data[p * png.channels + c]! : 255;
    }
  }
  const source = flags.input ?? 'assets/input.png';
  return { image: fromRgba8(png.width, png.height, rgba), source };
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${flag} takes a positive integer, got ${text}`);
  return value;
}

function writePng(file: string, image: Image, pixels: Float32Array): void {
  writeFileSync(
    file,
    encode({ width: image.width, height: image.height, data: toRgba8(pixels), channels: 4 }),
  );
}

interface Row {
  readonly mode: 'native' | 'emulated';
  readonly filter: FilterName;
  readonly pipelinesCreated: number;
  readonly firstMs: number;
  readonly bestMs: number;
  readonly maxError: number;
}

const { image, source } = loadInput();
const repeat = positiveInteger('--repeat', flags.repeat);
const outDir = flags['out-dir'];
mkdirSync(outDir, { recursive: true });

const native = await Queue.create({ specConstants: 'native' });
const emulated = await Queue.create({ device: native.device, specConstants: 'emulated' });
const convolver = new Convolver(native, image);

const rows: Row[] = [];
const outputs: string[] = [join(outDir, 'input.png')];
writePng(outputs[0]!, image, image.pixels);
for (const [mode, queue] of [
  ['native', native],
  ['emulated', emulated],
] as const) {
  for (const filter of FILTER_NAMES) {
    const first = await convolver.run(queue, FILTERS[filter]);
    let bestMs = first.milliseconds;
    let pipelinesCreated = first.pipelinesCreated;
    for (let r = 1; r < repeat; r++) {
      const again = await convolver.run(queue, FILTERS[filter]);
      bestMs = Math.min(bestMs, again.milliseconds);
      pipelinesCreated += again.pipelinesCreated;
    }
    const maxError = maxDifference(first.output, convolveOnCpu(image, FILTERS[filter]));
    rows.push({ mode, filter, pipelinesCreated, firstMs: first.milliseconds, bestMs, maxError });
    if (mode === 'native') {
      const file = join(outDir, `${filter}.png`);
      writePng(file, image, first.output);
      outputs.push(file);
    }
  }
}

const ok = rows.every((row) => row.maxError <= TOLERANCE);
const summary = {
  adapter: native.adapterDescription,
  input: source,
  width: image.width,
  height: image.height,
  rows,
  outputs,
  pipelinesCreated: native.stats.pipelinesCreated,
  ok,
};

const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(10);
console.log('syclts convolution: a 3x3 filter whose coefficients are a specialization constant');
console.log(`adapter: ${summary.adapter}`);
console.log(`image:   ${source}, ${image.width} x ${image.height}`);
console.log(
  'mode      filter    new pipelines  first run   best of ' +
    `${repeat}`.padEnd(3) +
    ' max |gpu - cpu|',
);
for (const row of rows) {
  console.log(
    `${row.mode.padEnd(9)} ${row.filter.padEnd(9)} ${String(row.pipelinesCreated).padStart(13)} ${ms(row.firstMs)} ${ms(row.bestMs)}  ${row.maxError.toExponential(1)}`,
  );
}
console.log(`wrote:   ${outputs.join(', ')}`);
console.log(
  ok
    ? `check:   every output matches the CPU reference (tolerance ${TOLERANCE})`
    : `check:   FAILED, an output differs from the CPU reference by more than ${TOLERANCE}`,
);
if (flags.json) console.log(JSON.stringify(summary));

// Dawn in Node aborts at a natural exit while a GPU device is alive: end the process explicitly.
process.exit(ok ? 0 : 1);
