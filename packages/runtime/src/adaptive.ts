/**
 * `@syclts/runtime/adaptive`: adaptive specialization, as the value `Queue.create({ adaptive })`
 * takes. A kernel's i32, u32 and bool arguments and emulated specialization constants that stay
 * the same for `STABLE_LAUNCHES` launches in a row run folded into a pipeline compiled in the
 * background, as literals; launches never wait for it, and go back to the generic pipeline as
 * soon as the values change. Its code lives here, so that an app that does not use it does not
 * carry it.
 */
export { adaptive, STABLE_LAUNCHES } from './queue/specialize.js';
