import { f32, struct, vec3f } from '@syclts/dsl';

/** Types shared across modules. */
export const Sphere = struct({ center: vec3f, radius: f32 });
export const Scalar = f32;
