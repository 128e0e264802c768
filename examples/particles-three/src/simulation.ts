/**
 * The particles' initial state and the page's CPU reference of the kernel in
 * `particles.sycl.ts`, in f32 (each operation rounded with `Math.fround`).
 */
import { SOFTENING } from './particles.sycl.ts';

/** xyzw per particle: positions (w = 1) and velocities (w = 0), f32. */
export interface State {
  readonly positions: Float32Array;
  readonly velocities: Float32Array;
}

/**
 * `count` particles in a thick disc of radius 0.6 to 2 around the attractor, each on a nearly
 * circular orbit (speed √(G·M / r), tangential, a little noise): fresh random values per call.
 */
export function initialState(count: number, strength: number, random = Math.random): State {
  const positions = new Float32Array(4 * count);
  const velocities = new Float32Array(4 * count);
  for (let i = 0; i < count; i++) {
    const r = 0.6 + 1.4 * Math.sqrt(random());
    const angle = 2 * Math.PI * random();
    const x = r * Math.cos(angle);
    const z = r * Math.sin(angle);
    const y = (random() - 0.5) * 0.2;
    const speed = Math.sqrt(strength / r) * (0.9 + 0.2 * random());
    positions.set([x, y, z, 1], 4 * i);
    // Counter-clockwise seen from above (+y): the tangent (-z, 0, x) / r.
    velocities.set([(-z / r) * speed, (random() - 0.5) * 0.05, (x / r) * speed, 0], 4 * i);
  }
  return { positions, velocities };
}

const f = Math.fround;

/** `steps` steps of `dt` on the CPU, as the kernel takes them: the positions after the last. */
export function simulate(
  initial: State,
  strength: number,
  dt: number,
  steps: number,
): Float32Array {
  const p = initial.positions.slice();
  const v = initial.velocities.slice();
  const g = f(strength);
  const step = f(dt);
  const soft = f(SOFTENING * SOFTENING);
  for (let s = 0; s < steps; s++) {
    for (let i = 0; i < p.length; i += 4) {
      const [x, y, z] = [p[i]!, p[i + 1]!, p[i + 2]!];
      const d2 = f(f(f(f(x * x) + f(y * y)) + f(z * z)) + soft);
      const inverse = f(1 / Math.sqrt(d2));
      const pull = f(f(f(g * inverse) * inverse) * inverse);
      const k = f(-pull * step);
      for (let c = 0; c < 3; c++) {
        v[i + c] = f(v[i + c]! + f(p[i + c]! * k));
        p[i + c] = f(p[i + c]! + f(v[i + c]! * step));
      }
    }
  }
  return p;
}

/** The largest difference in any coordinate. */
export function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let most = 0;
  for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs(a[i]! - b[i]!));
  return most;
}
