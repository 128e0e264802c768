/**
 * Memoised compute pipelines, least recently used first out, bounded in number. Dawn only reuses
 * a pipeline while an identical one is alive, so without this every launch with new values would
 * recompile. Entries sit on shelves, one per kernel and variant, keyed by the constants' values:
 * a launch plan looks its pipeline up on its kernel's shelf without building a key for the whole
 * cache, and an entry the cache drops leaves its shelf, so nothing holds more pipelines than the
 * cache's capacity.
 */
export class PipelineCache {
  /** Every entry, least recently used first, with where it sits. */
  readonly #order = new Map<PipelineEntry, { shelf: PipelineShelf; key: string }>();
  /** The most recently used entry: using it again needs no reordering. */
  #newest: PipelineEntry | null = null;

  constructor(public capacity: number) {}

  /** The entry for `key` on `shelf`, marked most recently used, or undefined. */
  get(shelf: PipelineShelf, key: string): PipelineEntry | undefined {
    const entry = shelf.get(key);
    if (entry && entry !== this.#newest) {
      const place = this.#order.get(entry)!;
      this.#order.delete(entry);
      this.#order.set(entry, place);
      this.#newest = entry;
    }
    return entry;
  }

  /** Adds an entry; returns how many old entries were evicted. */
  add(shelf: PipelineShelf, key: string, entry: PipelineEntry): number {
    shelf.set(key, entry);
    this.#order.set(entry, { shelf, key });
    this.#newest = entry;
    let evicted = 0;
    for (const [oldest, place] of this.#order) {
      if (this.#order.size <= this.capacity) break;
      this.#remove(oldest, place.shelf, place.key);
      evicted++;
    }
    return evicted;
  }

  delete(shelf: PipelineShelf, key: string, entry: PipelineEntry): void {
    if (this.#order.has(entry)) this.#remove(entry, shelf, key);
  }

  get size(): number {
    return this.#order.size;
  }

  #remove(entry: PipelineEntry, shelf: PipelineShelf, key: string): void {
    this.#order.delete(entry);
    if (shelf.get(key) === entry) shelf.delete(key);
    if (entry === this.#newest) this.#newest = null;
  }
}

/** One kernel's pipelines in one variant, by constants key; changed by PipelineCache only. */
export type PipelineShelf = Map<string, PipelineEntry>;

export interface PipelineEntry {
  /** Set once creation finished: launches then encode without waiting. */
  pipeline: GPUComputePipeline | null;
  readonly ready: Promise<GPUComputePipeline>;
  /**
   * The same pipeline with the image's overrides set for the launches that bind their own record
   * (absent where the image has none): each made in the background at its first use, `pipeline`
   * serving meanwhile.
   */
  own?: OwnRecordPipelines;
}

/** How a launch that binds its own record is dispatched. */
export type OwnRecordLaunch =
  /** One dispatch: no launch-slot code, no group offset. */
  | 'single'
  /** Several dispatches, each with its group offset: no launch-slot code. */
  | 'split';

/**
 * A kernel's pipelines for the launches that bind their own record: they run no launch-slot code
 * (they read their values at constant indices) and, in one dispatch, add no group offset. Each is
 * asked for at the second launch that would run it, so that values launched once (a stream of
 * new native value sets) compile one pipeline each, not two.
 */
export class OwnRecordPipelines {
  readonly #made: Record<OwnRecordLaunch, GPUComputePipeline | null | 'making'> = {
    single: null,
    split: null,
  };
  readonly #launches: Record<OwnRecordLaunch, number> = { single: 0, split: 0 };

  constructor(
    /** The constants each launch sets false; null where the default pipeline is that one. */
    private readonly overrides: Readonly<Record<OwnRecordLaunch, readonly string[] | null>>,
    /** Makes the pipeline with these overrides false (it never rejects: null on failure). */
    private readonly make: (
      off: readonly string[],
      launch: OwnRecordLaunch,
    ) => Promise<GPUComputePipeline | null>,
  ) {}

  /** The pipeline for `launch` once made, or null (asked for at the second such launch, once). */
  for(launch: OwnRecordLaunch): GPUComputePipeline | null {
    const made = this.#made[launch];
    if (made !== null) return made === 'making' ? null : made;
    const off = this.overrides[launch];
    if (off === null || ++this.#launches[launch] < 2) return null;
    this.#made[launch] = 'making';
    void this.make(off, launch).then((pipeline) => {
      // A failure leaves `making`: launches keep the default pipeline, which serves them all.
      if (pipeline) this.#made[launch] = pipeline;
    });
    return null;
  }
}
