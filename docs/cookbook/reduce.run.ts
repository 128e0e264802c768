/** Reduce two ways: reduction variables in your own kernel, and `reduce` of @syclts/algorithms. */
import { reduce } from '@syclts/algorithms';
import { Queue } from '@syclts/runtime';
import type { Print } from '../.vitepress/theme/live.ts';
import { seededFloats } from '../gallery/inputs.ts';
import { squaresAndPositives } from './reduce.sycl.ts';

export async function run(print: Print) {
  const n = 100_000;
  const queue = await Queue.create();
  const xs = queue.buffer(seededFloats(n, 3), { access: 'read' });

  // 1. Your kernel, two reduction variables: each result is combined into its buffer's element 0.
  const squares = queue.buffer(Float32Array.of(0));
  const positives = queue.buffer(Uint32Array.of(0));
  queue.parallelFor(n, squaresAndPositives, { xs, squares, positives });
  const [sumOfSquares] = await squares.read();
  const [positiveCount] = await positives.read();
  print(`sum of x^2:     ${sumOfSquares}`);
  print(`x > 0:          ${positiveCount} of ${n}`);

  // 2. No kernel of your own: the device-wide reduce, with an operator and an initial value.
  const smallest = queue.buffer(new Float32Array(1));
  const largest = queue.buffer(new Float32Array(1));
  reduce(queue, xs, smallest, { op: 'minimum' });
  reduce(queue, xs, largest, { op: 'maximum' });
  const [min] = await smallest.read();
  const [max] = await largest.read();
  print(`min, max:       ${min}, ${max}`);

  // Integers are exact (and u32 wraps, as on the CPU): the sum of 0..9999, with init 1000.
  const counts = queue.buffer(
    Uint32Array.from({ length: 10_000 }, (_, i) => i),
    { access: 'read' },
  );
  const total = queue.buffer(new Uint32Array(1));
  await reduce(queue, counts, total, { init: 1000 }).wait();
  const [sum] = await total.read();
  print(`1000 + 0..9999: ${sum}`);
  return { n, seed: 3, sumOfSquares, positiveCount, min, max, sum };
}
