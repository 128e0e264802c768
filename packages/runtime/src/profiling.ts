/**
 * `@syclts/runtime/profiling`: SYCL's `property::queue::enable_profiling`, as the value
 * `Queue.create({ enableProfiling })` takes, and `getProfilingInfo(event)`. Their code (timestamp
 * queries and their readback) lives here rather than in the queue and its events, so that an app
 * that does not profile does not carry it.
 */
export { enableProfiling, getProfilingInfo } from './queue/timestamps.js';
