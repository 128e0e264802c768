import { accessor, f32, kernel, specializationId } from '@syclts/dsl';

/** Gravity, fixed per run: a specialization constant, so a literal in the compiled kernel. */
export const gravity = specializationId(f32, -8);

/** How much speed a bounce keeps. */
export const RESTITUTION = 0.5;

/** One time step of `dt` for every particle: fall, move, bounce off the floor at y = 0. */
export const step = kernel(
  {
    range: 1,
    args: {
      x: accessor(f32, 'read_write'),
      y: accessor(f32, 'read_write'),
      vx: accessor(f32, 'read'),
      vy: accessor(f32, 'read_write'),
      dt: f32,
    },
  },
  (item, kh, { x, y, vx, vy, dt }) => {
    const i = item.getId(0);
    let v = vy[i]! + kh.getSpecializationConstant(gravity) * dt;
    let height = y[i]! + v * dt;
    if (height < 0) {
      height = -height;
      v = -v * RESTITUTION;
    }
    vy[i] = v;
    y[i] = height;
    x[i] = x[i]! + vx[i]! * dt;
  },
);
