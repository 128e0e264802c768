/**
 * Counts of a fuzz run and, for every crash or rejection signature, how often it was seen and
 * its smallest input (by source length), which becomes the signature's reproducer.
 */
import type { Outcome } from './check.js';
import type { Size } from './input.js';
import { inputAt } from './inputs.js';
import type { Reply } from './worker.js';

export interface Finding {
  readonly kind: 'crash' | 'rejected';
  readonly signature: string;
  count: number;
  /** The smallest input seen with this signature. */
  index: number;
  family: string;
  size: number;
  detail: string;
}

export class Tally {
  inputs = 0;
  built = 0;
  /** Built with raw-WGSL bodies: not checked on Dawn. */
  builtRaw = 0;
  refused = 0;
  pipelines = 0;
  /** Shader modules not checked: f16 on an adapter without shader-f16. */
  skippedF16 = 0;
  readonly findings = new Map<string, Finding>();
  readonly byFamily = new Map<string, Record<Outcome['kind'] | 'ms', number>>();

  constructor(
    readonly seed: number,
    readonly size: Size,
  ) {}

  add({ index, family, outcome }: Reply, ms: number): void {
    this.inputs++;
    const f = this.byFamily.get(family) ?? { built: 0, refused: 0, crash: 0, rejected: 0, ms: 0 };
    f[outcome.kind]++;
    f.ms += ms;
    this.byFamily.set(family, f);
    if (outcome.kind === 'refused') this.refused++;
    else if (outcome.kind === 'built') {
      this.built++;
      if (outcome.rawWgsl) this.builtRaw++;
      this.pipelines += outcome.pipelines;
      this.skippedF16 += outcome.skipped;
    } else {
      const key = `${outcome.kind}: ${outcome.signature}`;
      const size = inputAt(this.seed, index, this.size).sources.reduce(
        (s, m) => s + m.source.length,
        0,
      );
      const seen = this.findings.get(key);
      if (!seen) {
        this.findings.set(key, { ...outcome, count: 1, index, family, size });
      } else {
        seen.count++;
        if (size < seen.size) Object.assign(seen, { index, family, size, detail: outcome.detail });
      }
    }
  }

  count(kind: 'crash' | 'rejected'): number {
    let n = 0;
    for (const f of this.findings.values()) if (f.kind === kind) n += f.count;
    return n;
  }
}
