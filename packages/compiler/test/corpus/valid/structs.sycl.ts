import { accessor, f32, kernel, struct, u32, vec2f } from '@syclts/dsl';

export const Particle = struct({ position: vec2f, velocity: vec2f, mass: f32, id: u32 });
const Step = struct({ dt: f32, gravity: f32 });

/** Struct accessors, a struct value argument, object literals built where a struct is expected. */
export const integrate = kernel(
  { range: 1, args: { ps: accessor(Particle, 'read_write'), step: Step } },
  (item, _kh, { ps, step }) => {
    const i = item.getId(0);
    const p = ps[i]!;
    const vy = p.velocity.y - step.gravity * step.dt;
    ps[i] = {
      position: vec2f(p.position.x + p.velocity.x * step.dt, p.position.y + vy * step.dt),
      velocity: vec2f(p.velocity.x, vy),
      mass: p.mass * 2,
      id: p.id + 1000,
    };
    ps[i]!.velocity.x = -p.velocity.x;
  },
);

const Inner = struct({ a: u32, b: u32 });
const Outer = struct({ inner: Inner, scale: u32 });

/** Nested structs in a local variable, written field by field. */
export const nested = kernel(
  { range: 1, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => {
    const i = item.getId(0);
    const o = Outer({ inner: { a: i, b: i * 2 }, scale: 3 });
    o.inner.b += 5;
    out[i] = (o.inner.a + o.inner.b) * o.scale;
  },
);
