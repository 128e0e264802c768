/**
 * The source each device module's transform began with (what the bundler's `load` and the
 * transforms before this plugin's made of it), by file: what a module importing it compiles
 * against. Also handed to the bundler as the module's `meta`, for bundlers that cache transforms.
 */
export const SOURCE_META = 'unplugin-syclts';

export class DeviceSources {
  readonly #latest = new Map<string, string>();
  /** Files whose transform is under way, with how many. */
  readonly #transforming = new Map<string, number>();

  begin(file: string, source: string): void {
    this.#latest.set(file, source);
    this.#transforming.set(file, (this.#transforming.get(file) ?? 0) + 1);
  }

  end(file: string): void {
    const count = (this.#transforming.get(file) ?? 1) - 1;
    if (count > 0) this.#transforming.set(file, count);
    else this.#transforming.delete(file);
  }

  /** The source of a module whose transform is under way, else undefined. */
  inTransform(file: string): string | undefined {
    return this.#transforming.has(file) ? this.#latest.get(file) : undefined;
  }

  /** The source the module's latest transform began with. */
  latest(file: string): string | undefined {
    return this.#latest.get(file);
  }
}

/** The module `meta` a transform returns, and reads back from the bundler's module info. */
export function sourceMeta(source: string): Record<string, unknown> {
  return { [SOURCE_META]: { source } };
}

export function sourceFromMeta(meta: unknown): string | undefined {
  const entry = (meta as Record<string, { source?: unknown } | undefined> | undefined)?.[
    SOURCE_META
  ];
  return typeof entry?.source === 'string' ? entry.source : undefined;
}
