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
   * For a launch that binds its own record (`split`: in several dispatches), the same pipeline
   * with the image's overrides off: no launch-slot code (values read at constant indices) and, in
   * one dispatch, no group offset. Null until made, in the background at the second such launch
   * (values launched once, a stream of new native value sets, compile one pipeline each);
   * `pipeline` serves them meanwhile. Absent where the image has neither override.
   */
  own?: (split: boolean) => GPUComputePipeline | null;
}
