/**
 * Memoised compute pipelines, least recently used first out. Dawn only reuses a pipeline while
 * an identical one is alive, so without this every launch with new values would recompile.
 */
export class PipelineCache {
  readonly #entries = new Map<string, PipelineEntry>();
  /** The most recently used key: using it again needs no reordering. */
  #newest: string | null = null;

  constructor(public capacity: number) {}

  /** The entry for `key`, marked most recently used, or undefined. */
  get(key: string): PipelineEntry | undefined {
    const entry = this.#entries.get(key);
    if (entry && key !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      this.#newest = key;
    }
    return entry;
  }

  /** Adds an entry; returns how many old entries were evicted. */
  add(key: string, entry: PipelineEntry): number {
    this.#entries.set(key, entry);
    this.#newest = key;
    let evicted = 0;
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.capacity) break;
      this.#entries.delete(oldest);
      evicted++;
    }
    return evicted;
  }

  delete(key: string, entry: PipelineEntry): void {
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
    if (key === this.#newest) this.#newest = null;
  }

  get size(): number {
    return this.#entries.size;
  }
}

export interface PipelineEntry {
  /** Set once creation finished: launches then encode without waiting. */
  pipeline: GPUComputePipeline | null;
  readonly ready: Promise<GPUComputePipeline>;
}
