/**
 * The blur in Node: a PNG (or a generated image of random noise) into a texture, blurred with
 * several radii, each output checked against the CPU and written as a PNG (the input too).
 *
 *   node dist/node/main.mjs [--input FILE.png | --size N] [--radius R,...] [--out-dir DIR] [--json]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Queue } from '@syclts/runtime';
import { decode, encode } from 'fast-png';
import { blurTexture } from './blurrer.ts';
import { blurOnCpu, maxDifference, TOLERANCE } from './reference.ts';

const { values: flags } = parseArgs({
  options: {
    input: { type: 'string' },
    size: { type: 'string' },
    radius: { type: 'string', default: '1,3,6' },
    'out-dir': { type: 'string', default: 'out' },
    json: { type: 'boolean', default: false },
  },
});

/** The PNG shipped beside the example (this file is dist/node/main.mjs once bundled). */
const SHIPPED_INPUT = new URL('../../assets/input.png', import.meta.url);

function loadInput(): { width: number; height: number; rgba: Uint8Array; source: string } {
  if (flags.size !== undefined) {
    const size = Number(flags.size);
    if (!Number.isInteger(size) || size < 1) throw new Error(`--size ${flags.size}: not a size`);
    const rgba = new Uint8Array(size * size * 4);
    for (let i = 0; i < rgba.length; i++) rgba[i] = i % 4 === 3 ? 255 : (Math.random() * 256) | 0;
    return { width: size, height: size, rgba, source: 'random noise' };
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
  const shown = typeof file === 'string' ? file : fileURLToPath(file);
  return { width: png.width, height: png.height, rgba, source: shown };
}

const radii = flags.radius.split(',').map((r) => {
  const n = Number(r);
  if (!Number.isInteger(n) || n < 0 || n > 32) throw new Error(`--radius ${r}: 0 to 32`);
  return n;
});

const { width, height, rgba, source } = loadInput();
const queue = await Queue.create();
const src = queue.texture({ format: 'rgba8unorm', size: [width, height] });
src.write(rgba);
const dst = queue.texture({ format: 'rgba8unorm', size: [width, height] });
mkdirSync(flags['out-dir'], { recursive: true });
writeFileSync(
  join(flags['out-dir'], 'input.png'),
  encode({ width, height, data: rgba, channels: 4, depth: 8 }),
);
const runs = [];
for (const r of radii) {
  // A grey no blur gives, so a texel the kernel missed shows in the check.
  dst.write(new Uint8Array(width * height * 4).fill(0x7f));
  const start = performance.now();
  blurTexture(queue, src, dst, r);
  const out = await dst.read();
  const milliseconds = performance.now() - start;
  const error = maxDifference(out, blurOnCpu(width, height, rgba, r));
  const file = join(flags['out-dir'], `blur-${r}.png`);
  writeFileSync(file, encode({ width, height, data: out, channels: 4, depth: 8 }));
  runs.push({ radius: r, milliseconds, error, file });
}
const ok = runs.every((run) => run.error <= TOLERANCE);
if (flags.json) {
  console.log(JSON.stringify({ adapter: queue.adapterDescription, width, height, ok, runs }));
} else {
  console.log('syclts blur: a Gaussian blur on textures, its radius a specialization constant');
  console.log(`adapter: ${queue.adapterDescription}`);
  console.log(`image:   ${source}, ${width} x ${height}`);
  console.log('radius  time (incl. pipeline)  max |gpu - cpu|  output');
  for (const run of runs) {
    console.log(
      `${String(run.radius).padStart(6)}  ${run.milliseconds.toFixed(2).padStart(18)} ms  ${String(run.error).padStart(15)}  ${run.file}`,
    );
  }
  console.log(
    ok
      ? 'check:   every output matches the CPU reference'
      : 'check:   FAILED (see max |gpu - cpu|)',
  );
}
await queue.destroy();
process.exitCode = ok ? 0 : 1;
