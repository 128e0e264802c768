/**
 * A particle system: the state lives in GPU buffers, one launch per time step, read back once
 * at the end. The values are multiples of powers of two, so the GPU's f32 steps are exact and a
 * CPU can repeat them bit for bit.
 */
import { Queue } from '@syclts/runtime';
import { addCanvas, type Print } from '../.vitepress/theme/live.ts';
import { initialState } from './particles.state.ts';
import { gravity, step } from './particles.sycl.ts';

export async function run(print: Print, area: HTMLElement) {
  const n = 4096;
  const steps = 120;
  const dt = 1 / 64;
  const g = -8;
  const start = initialState(n);
  const queue = await Queue.create();
  const x = queue.buffer(start.x);
  const y = queue.buffer(start.y);
  const vx = queue.buffer(start.vx, { access: 'read' });
  const vy = queue.buffer(start.vy);

  const t0 = performance.now();
  for (let s = 0; s < steps; s++) {
    queue.submit((cgh) => {
      cgh.setSpecializationConstant(gravity, g);
      cgh.parallelFor([n], step, { x, y, vx, vy, dt });
    });
  }
  const heights = await y.read();
  const ms = performance.now() - t0;
  const xs = await x.read();
  const speeds = await vy.read();

  // The particles where they are now: x in [-1, 9), y in [0, 3.2).
  const plot = addCanvas(area, `after ${steps} steps`, 320, 320);
  plot.fillStyle = '#1d4ed8';
  for (let i = 0; i < n; i++) plot.fillRect((xs[i]! + 1) * 32, 319 - heights[i]! * 100, 2, 2);

  let highest = 0;
  for (const h of heights) highest = Math.max(highest, h);
  print(`${n} particles, ${steps} steps of ${dt} s, gravity ${g}`);
  print(`highest now:   ${highest}`);
  print(`particle 0:    x ${xs[0]}, y ${heights[0]}, vy ${speeds[0]}`);
  print(`time:          ${ms.toFixed(1)} ms for ${steps} launches (submit to results read)`);
  return {
    n,
    steps,
    dt,
    gravity: g,
    x: Array.from(xs),
    y: Array.from(heights),
    vy: Array.from(speeds),
  };
}
