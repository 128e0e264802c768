import { exclusiveScan } from '@syclts/algorithms';
import { Queue } from '@syclts/runtime';
import { gather, mark } from './keep.sycl.ts';

const n = 2 ** 20;
const threshold = 0.5;
const data = Float32Array.from({ length: n }, () => Math.random() * 2 - 1);

const queue = await Queue.create();
console.log(`adapter: ${queue.adapterDescription}`);

const start = performance.now();
const xs = queue.buffer(data, { access: 'read' });
const flags = queue.buffer(new Uint32Array(n));
const places = queue.buffer(new Uint32Array(n));
const kept = queue.buffer(new Float32Array(n).fill(Number.NaN));
// Mark, count what comes before each element, move each kept element to its place.
queue.parallelFor(n, mark, { xs, flags, threshold });
exclusiveScan(queue, flags, places);
queue.parallelFor(n, gather, { xs, flags, places, kept });
// The last element's place, plus one if it is kept itself.
const count = (await places.read())[n - 1]! + (await flags.read())[n - 1]!;
const gpu = (await kept.read()).subarray(0, count);
const ms = performance.now() - start;

const cpu = data.filter((x) => x > threshold);
const ok = count === cpu.length && gpu.every((x, i) => x === cpu[i]);

console.log(`n:     ${n} random floats in [-1, 1), kept where > ${threshold}`);
console.log(`kept:  ${count} (CPU ${cpu.length}), in their order: ${ok ? 'yes' : 'no'}`);
console.log(`time:  ${ms.toFixed(1)} ms (upload to results read, pipeline creation included)`);
console.log(`check: ${ok ? 'ok' : 'FAILED'}`);
process.exitCode = ok ? 0 : 1;
