/** Counters for tests and benchmarks, per GPUDevice (queues on one device share them). */
export interface RuntimeStats {
  /** Compute pipelines created (each distinct native value set of a kernel, each emulated kernel). */
  pipelinesCreated: number;
  /** Launches and builds that found their pipeline in the cache. */
  pipelineCacheHits: number;
  /** Pipelines dropped from the cache to stay within its size. */
  pipelineCacheEvictions: number;
  shaderModulesCreated: number;
  nativeLaunches: number;
  emulatedLaunches: number;
  /** Emulated launches under 'auto' whose native pipeline was still compiling (included above). */
  emulatedWhileCompiling: number;
  /** Native pipelines 'auto' started compiling in the background. */
  backgroundCompiles: number;
  /**
   * Adaptive specialization: value sets that stayed the same long enough to start compiling a
   * pipeline with them folded in. Its three counters are present (from 0) once a queue created
   * with it on the device launched a kernel: `@syclts/runtime/adaptive` adds them, so an app
   * without it carries none of their code.
   */
  specializationsStarted?: number;
  /** Adaptive specialization: launches that ran on a pipeline with their values folded in. */
  specializedLaunches?: number;
  /** Adaptive specialization: value changes that sent a kernel back from such a pipeline to the generic one. */
  specializationsDropped?: number;
  /** Batches of launches submitted (each one `queue.submit` for every launch in it). */
  batches: number;
  /** `dispatchWorkgroups` calls (more than launches when a range exceeds the dispatch limits). */
  dispatches: number;
  deviceGlobalBuffers: number;
}

export function emptyStats(): RuntimeStats {
  return {
    pipelinesCreated: 0,
    pipelineCacheHits: 0,
    pipelineCacheEvictions: 0,
    shaderModulesCreated: 0,
    nativeLaunches: 0,
    emulatedLaunches: 0,
    emulatedWhileCompiling: 0,
    backgroundCompiles: 0,
    batches: 0,
    dispatches: 0,
    deviceGlobalBuffers: 0,
  };
}
