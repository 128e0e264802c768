/**
 * Checks one fuzz input: builds it the way the CLI does and classifies the result. A build
 * must end in a program or in error diagnostics; a thrown exception or an internal error
 * (SYCL1000) is a crash. A program's WGSL must then pass Dawn: every shader module compiles
 * and every kernel's pipeline is created with the explicit layout the program describes
 * (pipeline creation is where Dawn checks limits, layouts and constants). The Dawn side runs
 * in dawn-worker.ts; this module says what to check and reads its verdict.
 */
import { build } from '../../src/build.js';
import { type LayoutBinding, layoutBindings } from '../support/layout-entries.js';
import { requiredSizes } from '../support/lowerings.js';
import { type FuzzInput, hasRawWgsl } from './input.js';
import { normalize, throwSite } from './signature.js';

export type Outcome =
  | { readonly kind: 'refused' }
  | {
      readonly kind: 'built';
      readonly pipelines: number;
      readonly rawWgsl: boolean;
      /** Shader modules Dawn could not check (f16 without shader-f16). */
      readonly skipped: number;
    }
  | { readonly kind: 'crash' | 'rejected'; readonly signature: string; readonly detail: string };

/** What dawn-worker.ts checks: each shader module, then each pipeline made from it. */
export interface DawnJob {
  readonly modules: readonly {
    readonly label: string;
    readonly code: string;
    /** The sub-group sizes its kernels require, in the sub-group lowering (the device may lack them). */
    readonly subGroupSizes?: readonly number[];
    readonly pipelines: readonly {
      readonly entryPoint: string;
      readonly entries: readonly LayoutBinding[];
      readonly constants: Readonly<Record<string, number>>;
    }[];
  }[];
}

export interface DawnVerdict {
  readonly error: {
    readonly stage: string;
    readonly label: string;
    readonly message: string;
  } | null;
  readonly pipelines: number;
  /** Modules not checked: they enable f16 and the adapter has no shader-f16. */
  readonly skipped: number;
}

/** Builds the input; when it built with no raw WGSL, also what Dawn must accept. */
export function compile(input: FuzzInput): { outcome: Outcome; job: DawnJob | null } {
  let result: ReturnType<typeof build>;
  try {
    result = build(input.sources, { specConstants: input.specConstants, validateIr: true });
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    return crash(
      `throws ${error.name} at ${throwSite(error.stack)}: ${normalize(error.message)}`,
      error.stack ?? error.message,
    );
  }
  const internal = result.diagnostics.find((d) => d.code === 'SYCL1000');
  if (internal) return crash(`SYCL1000: ${normalize(internal.message)}`, internal.message);
  const program = result.program;
  if (!program) {
    if (result.diagnostics.some((d) => d.severity === 'error'))
      return { outcome: { kind: 'refused' }, job: null };
    return crash('no program and no error', JSON.stringify(result.diagnostics));
  }
  const rawWgsl = hasRawWgsl(input);
  const outcome: Outcome = { kind: 'built', pipelines: 0, rawWgsl, skipped: 0 };
  if (rawWgsl) return { outcome, job: null };
  const modules: DawnJob['modules'][number][] = [];
  for (const image of program.images) {
    // Both lowerings of group functions, where the image has two.
    const texts = [image.wgsl, ...(image.workgroupLowering ? [image.workgroupLowering.wgsl] : [])];
    for (const [t, mode] of texts.flatMap((_, t) =>
      (['native', 'emulated'] as const).map((m) => [t, m] as const),
    )) {
      const code = texts[t]![mode];
      if (code === undefined) continue;
      // A constant without a default needs a value to create the pipeline; any will do.
      const constants: Record<string, number> = {};
      if (mode === 'native') {
        for (const c of Object.values(image.specConstants)) {
          if (c.defaultValue === null) for (const leaf of c.leaves) constants[String(leaf.id)] = 1;
        }
      }
      const pipelines = Object.values(image.kernels)
        .filter((k) => k.variants.includes(mode))
        .map((k) => ({
          entryPoint: k.entryPoint,
          entries: layoutBindings(image, k, mode),
          constants,
        }));
      modules.push({
        label: `${image.id} (${mode}${t === 1 ? ', workgroup lowering' : ''})`,
        code,
        pipelines,
        ...(image.workgroupLowering && t === 0 ? { subGroupSizes: requiredSizes(image) } : {}),
      });
    }
  }
  return { outcome, job: { modules } };
}

/** The outcome of a built input once Dawn has checked it. */
export function judge(job: DawnJob, verdict: DawnVerdict): Outcome {
  const { error } = verdict;
  if (!error)
    return {
      kind: 'built',
      pipelines: verdict.pipelines,
      rawWgsl: false,
      skipped: verdict.skipped,
    };
  const code = job.modules.find((m) => error.label.startsWith(m.label))?.code ?? '';
  const kind = error.stage === 'checker' ? 'crash' : 'rejected';
  return {
    kind,
    signature: `${error.stage}: ${normalize(firstError(error.message))}`,
    detail: `${error.label}: ${error.message}\n${code}`,
  };
}

function crash(signature: string, detail: string): { outcome: Outcome; job: null } {
  return { outcome: { kind: 'crash', signature, detail }, job: null };
}

/** Dawn nests the WGSL error under context lines: the line with `error:` says most. */
function firstError(text: string): string {
  const lines = text.split('\n');
  const line = lines.find((l) => /error:/.test(l)) ?? lines[0]!;
  return line.replace(/^.*?error:\s*/, '').replace(/^\d+:\d+ /, '');
}
