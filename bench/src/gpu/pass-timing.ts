/**
 * Per-pass GPU timing of hand-written WGSL, the way a standalone script times a kernel: every
 * timed repetition recorded into one command encoder and submitted once, each repetition's compute
 * passes bracketed by timestamp writes (the first pass's beginning, the last pass's end), after
 * warm-up repetitions submitted the same way. Without the timestamp-query feature (software
 * adapters), each repetition gets the host's wall time of the whole submission divided by the
 * repetitions: good enough for checks, not a measurement.
 */

/** Records one repetition: `timed(pass)` must wrap the descriptor of its first and last pass. */
export type Record = (encoder: GPUCommandEncoder, timed: Timed) => void;
/** Adds the timestamp writes to a compute pass descriptor: `first`/`last` of the repetition. */
export type Timed = (first: boolean, last: boolean) => GPUComputePassDescriptor;

export interface PassTimes {
  /** Microseconds of each timed repetition, in order. */
  readonly us: number[];
  readonly median: number;
  readonly best: number;
  /** Whether these are GPU timestamps (false: host wall time per repetition). */
  readonly gpu: boolean;
}

export function summarize(us: number[], gpu: boolean): PassTimes {
  const sorted = [...us].sort((a, b) => a - b);
  return {
    us,
    median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
    best: sorted[0] ?? Number.NaN,
    gpu,
  };
}

/**
 * Times `repetitions` runs after `warmUp` untimed ones and, with `warmUpMs`, more untimed runs
 * until that much time has passed, submitted about 20 ms at a time: an idle GPU runs at its
 * lowest clock (345 MHz of the H100's 1980, nvidia-smi) and takes a few hundred milliseconds of
 * steady work to reach its highest, so the warm-up is measured in time, not in runs (runs timed
 * at the low clock are several times too long to count by).
 */
export async function timePasses(
  device: GPUDevice,
  record: Record,
  repetitions: number,
  warmUp = 2,
  warmUpMs = 0,
): Promise<PassTimes> {
  const untimed: Timed = () => ({});
  const warm = async (runs: number) => {
    const encoder = device.createCommandEncoder();
    for (let i = 0; i < runs; i++) record(encoder, untimed);
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
  };
  if (warmUp > 0) {
    const start = performance.now();
    await warm(warmUp);
    let each = Math.max((performance.now() - start) / warmUp, 0.01);
    while (performance.now() - start < warmUpMs) {
      const runs = Math.min(1000, Math.ceil(20 / each));
      const t0 = performance.now();
      await warm(runs);
      each = Math.max((performance.now() - t0) / runs, 0.01);
    }
  }
  const timestamps = device.features.has('timestamp-query');
  if (!timestamps) {
    const start = performance.now();
    const encoder = device.createCommandEncoder();
    for (let i = 0; i < repetitions; i++) record(encoder, untimed);
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
    const each = ((performance.now() - start) * 1000) / repetitions;
    return summarize(
      Array.from({ length: repetitions }, () => each),
      false,
    );
  }
  const querySet = device.createQuerySet({ type: 'timestamp', count: 2 * repetitions });
  const bytes = 16 * repetitions;
  const resolved = device.createBuffer({
    size: bytes,
    usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
  });
  const readable = device.createBuffer({
    size: bytes,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = device.createCommandEncoder();
  for (let i = 0; i < repetitions; i++) {
    record(encoder, (first, last) => {
      const writes: GPUComputePassTimestampWrites = { querySet };
      if (first) writes.beginningOfPassWriteIndex = 2 * i;
      if (last) writes.endOfPassWriteIndex = 2 * i + 1;
      return first || last ? { timestampWrites: writes } : {};
    });
  }
  encoder.resolveQuerySet(querySet, 0, 2 * repetitions, resolved, 0);
  encoder.copyBufferToBuffer(resolved, 0, readable, 0, bytes);
  device.queue.submit([encoder.finish()]);
  await readable.mapAsync(GPUMapMode.READ);
  const ticks = new BigUint64Array(readable.getMappedRange());
  const us = Array.from(
    { length: repetitions },
    (_, i) => Number(ticks[2 * i + 1]! - ticks[2 * i]!) / 1000,
  );
  readable.destroy();
  resolved.destroy();
  querySet.destroy();
  return summarize(us, true);
}

/**
 * `timePasses` in rounds for about `ms` after its warm-up, reporting the round with the lowest
 * median. A GPU left idle while the host prepares a row drops to its lowest clock, and under load
 * it does not always climb straight back: nvidia-smi beside the suite showed the H100 go from
 * 345 MHz to 1980 in a quarter of a second before one row and stop at 660 and 1095 MHz for over
 * a second before the next, so a row timed once after a fixed warm-up ran at whatever clock it
 * found (up to 3x its time). The best round is each row at the highest clock it reached.
 */
export async function timeSteady(
  device: GPUDevice,
  record: Record,
  repetitions: number,
  ms: number,
): Promise<PassTimes> {
  const start = performance.now();
  let best = await timePasses(device, record, repetitions, 2, 300);
  while (performance.now() - start < ms) {
    const round = await timePasses(device, record, repetitions, 0);
    if (round.median < best.median) best = round;
  }
  return best;
}
