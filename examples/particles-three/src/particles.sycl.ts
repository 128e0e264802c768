/**
 * Device code: particles falling around an attractor at the origin. The positions are the
 * storage buffer three.js draws from (wrapped with `queue.buffer(gpuBuffer, vec4f)`), the
 * velocities a buffer of syclts's own.
 */
import {
  accessor,
  add,
  dot,
  f32,
  inverseSqrt,
  kernel,
  mul,
  specializationId,
  vec4f,
} from '@syclts/dsl';

/** The attractor's strength (G·M): a specialization constant, so a literal in the native pipeline. */
export const strength = specializationId(f32, 1);

/** Plummer softening length: keeps the pull finite for a particle passing through the centre. */
export const SOFTENING = 0.05;

/**
 * One semi-implicit Euler step of `dt` per particle (range: the particle count). xyz is the
 * position or velocity, w is kept (three.js reads positions as vec4).
 */
export const step = kernel(
  {
    range: 1,
    args: {
      positions: accessor(vec4f, 'read_write'),
      velocities: accessor(vec4f, 'read_write'),
      dt: f32,
    },
  },
  (item, kh, { positions, velocities, dt }) => {
    const i = item.getId(0);
    const p = positions[i]!;
    const v = velocities[i]!;
    const inverseDistance = inverseSqrt(dot(p.xyz, p.xyz) + SOFTENING * SOFTENING);
    // a = -G·M·p / |p|³, softened.
    const pull =
      kh.getSpecializationConstant(strength) * inverseDistance * inverseDistance * inverseDistance;
    const velocity = add(v.xyz, mul(p.xyz, -pull * dt));
    velocities[i] = vec4f(velocity, v.w);
    positions[i] = vec4f(add(p.xyz, mul(velocity, dt)), p.w);
  },
);
