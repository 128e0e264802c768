import { accessor, deviceFunction, kernel, length, sub, u32 } from '@syclts/dsl';
import { Scalar, Sphere } from './shapes.sycl.ts';

const Index = u32;

export const inside = deviceFunction(
  { args: [Sphere, Scalar, Scalar, Scalar], returns: Index },
  (s, x, y, z) => {
    const d =
      length(sub(s.center, Sphere({ center: s.center, radius: 0 }).center)) +
      length(sub(s.center, s.center));
    const dx = x - s.center.x;
    const dy = y - s.center.y;
    const dz = z - s.center.z;
    return dx * dx + dy * dy + dz * dz + d <= s.radius * s.radius ? 1 : 0;
  },
);

/** Type aliases local and imported from another module. */
export const countInside = kernel(
  {
    range: 1,
    args: { spheres: accessor(Sphere, 'read'), out: accessor(Index, 'write'), p: Scalar },
  },
  (item, _kh, { spheres, out, p }) => {
    const i = item.getId(0);
    out[i] = inside(spheres[i]!, p, p, p);
  },
);
