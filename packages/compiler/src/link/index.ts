import type { ProgramGlobals, SpecConstantMode, SymbolicId } from '@syclts/dsl';
import { type Diagnostic, errorAt } from '../diagnostics/diagnostic.js';
import * as msg from '../diagnostics/link-messages.js';
import { type Call, recursiveCalls } from '../ir/call-graph.js';
import type { DeviceObject } from '../ir/device-object.js';
import type { Span } from '../ir/span.js';
import { compare } from './compare.js';
import { checkGlobalSizes, globalInfo, layoutGlobals } from './global-storage.js';
import { buildImage } from './image.js';
import type { LinkedImage } from './linked-image.js';
import { type Reach, reachOf } from './reach.js';
import { lowerReductions } from './reductions.js';
import {
  type ResolvedFunction,
  type ResolvedKernel,
  resolveFunction,
  resolveKernel,
} from './resolve.js';
import { SymbolTable, symbolicId } from './symbols.js';
import { checkUniformity } from './uniformity.js';

export type SplitMode = 'per-module' | 'per-kernel' | 'whole';
export type SpecConstantsOption = SpecConstantMode | 'both';

export interface LinkOptions {
  /** Default 'per-module'. */
  readonly split?: SplitMode;
  /** Default 'native'. */
  readonly specConstants?: SpecConstantsOption;
}

export interface LinkInput {
  /** Every `.sycl.ts` module of the bundle, by root-relative path. */
  readonly modules: ReadonlyMap<string, DeviceObject>;
  /** Root-relative path of the module an import specifier names, or null when it is not a known module. */
  readonly resolveImport: (fromModule: string, specifier: string) => string | null;
}

export interface LinkResult {
  /** Empty when any error was reported. */
  readonly images: readonly LinkedImage[];
  /** The buffer every image shares: every device global of the program without deviceImageScope. */
  readonly programGlobals: ProgramGlobals;
  readonly diagnostics: readonly Diagnostic[];
}

/** Resolves references across modules, numbers and lays out everything, and splits device code into images. */
export function link(input: LinkInput, options: LinkOptions = {}): LinkResult {
  const split = options.split ?? 'per-module';
  const mode = options.specConstants ?? 'native';
  const diagnostics: Diagnostic[] = [];
  const table = new SymbolTable(input.modules, input.resolveImport);
  const modules = [...input.modules.values()].sort((a, b) => compare(a.module, b.module));

  const functions = new Map<SymbolicId, ResolvedFunction | null>();
  const functionOf = (id: SymbolicId): ResolvedFunction | null => {
    if (!functions.has(id)) {
      const found = table.declarations.get(id);
      if (found?.kind !== 'function') throw new Error(`link: ${id} is not a function`);
      functions.set(id, resolveFunction(table, found.module, id, found.decl, diagnostics));
    }
    return functions.get(id)!;
  };

  const kernels: { kernel: ResolvedKernel; reach: Reach }[] = [];
  for (const object of modules) {
    for (const decl of [...object.kernels].sort((a, b) => compare(a.name, b.name))) {
      const kernel = resolveKernel(
        table,
        object.module,
        symbolicId(object.module, decl.name),
        decl,
        diagnostics,
      );
      if (kernel) kernels.push({ kernel, reach: reachOf(kernel, functionOf) });
    }
  }
  reportRecursion(functions, diagnostics);
  if (!diagnostics.some((d) => d.severity === 'error')) {
    checkUniformity(
      kernels.map((k) => k.kernel),
      functions,
      diagnostics,
    );
  }

  const groups = new Map<string, typeof kernels>();
  for (const k of kernels) {
    const id =
      split === 'per-module' ? k.kernel.module : split === 'per-kernel' ? k.kernel.id : 'program';
    // A kernel's reductions lowered, with their finishing kernels in its image.
    const { kernel, finishers } = lowerReductions(k.kernel);
    const lowered = [
      { kernel, reach: k.reach },
      ...finishers.map((f) => ({ kernel: f, reach: reachOf(f, functionOf) })),
    ];
    groups.set(id, [...(groups.get(id) ?? []), ...lowered]);
  }
  checkDeviceImageScope(groups, table, diagnostics);

  const declOf =
    <K extends 'specConstant' | 'deviceGlobal'>(kind: K) =>
    (id: SymbolicId) => {
      const found = table.declarations.get(id);
      if (found?.kind !== kind) throw new Error(`link: ${id} is not a ${kind}`);
      return found.decl as Extract<typeof found, { kind: K }>['decl'];
    };
  const deviceGlobalDecl = declOf('deviceGlobal');
  // Every global, used by a kernel or not: the host may copy to and from any of them.
  const shared = [...table.declarations]
    .filter(([, d]) => d.kind === 'deviceGlobal' && !d.decl.deviceImageScope)
    .map(([id]) => id);
  const programGlobals = layoutGlobals(shared, (id) => deviceGlobalDecl(id).type);
  checkGlobalSizes(
    programGlobals,
    shared.map((id) => ({
      id,
      module: table.declarations.get(id)!.module,
      decl: deviceGlobalDecl(id),
    })),
    null,
    diagnostics,
  );
  const images = [...groups]
    .sort(([a], [b]) => compare(a, b))
    .map(([id, group]) =>
      buildImage(
        {
          id,
          kernels: group,
          specConstantDecl: declOf('specConstant'),
          deviceGlobalDecl,
          programGlobals,
          sourceOf: (module) => input.modules.get(module)?.source ?? '',
          mode,
        },
        diagnostics,
      ),
    );
  const failed = diagnostics.some((d) => d.severity === 'error');
  return {
    images: failed ? [] : images,
    programGlobals: {
      size: programGlobals.size,
      globals: Object.fromEntries(
        [...programGlobals.offsets].map(([id, offset]) => [
          id,
          globalInfo(deviceGlobalDecl(id), offset),
        ]),
      ),
    },
    diagnostics,
  };
}

/** A `deviceImageScope` global's storage belongs to one image: using it from two is an error. */
function checkDeviceImageScope(
  groups: ReadonlyMap<string, readonly { kernel: ResolvedKernel; reach: Reach }[]>,
  table: SymbolTable,
  diagnostics: Diagnostic[],
): void {
  const imagesOf = new Map<SymbolicId, Map<string, ResolvedKernel[]>>();
  for (const [imageId, group] of groups) {
    for (const { kernel, reach } of group) {
      for (const id of reach.deviceGlobals) {
        const found = table.declarations.get(id);
        if (found?.kind !== 'deviceGlobal' || !found.decl.deviceImageScope) continue;
        const byImage = imagesOf.get(id) ?? new Map<string, ResolvedKernel[]>();
        byImage.set(imageId, [...(byImage.get(imageId) ?? []), kernel]);
        imagesOf.set(id, byImage);
      }
    }
  }
  for (const [id, byImage] of [...imagesOf].sort(([a], [b]) => compare(a, b))) {
    if (byImage.size < 2) continue;
    const found = table.declarations.get(id)!;
    const users = [...byImage].sort(([a], [b]) => compare(a, b));
    const message = msg.deviceImageScopeShared(
      id,
      users.map(([image]) => image),
      users.flatMap(([, ks]) => ks.map((k) => k.id)),
    );
    diagnostics.push(
      errorAt(
        message,
        found.module,
        found.decl.span,
        users.flatMap(([image, ks]) =>
          ks.map((k) => ({
            file: k.module,
            span: k.decl.span,
            message: msg.deviceImageScopeUse(k.id, image),
          })),
        ),
      ),
    );
  }
}

/** Calls between the kernels' device functions that form a cycle, across modules. */
function reportRecursion(
  functions: ReadonlyMap<SymbolicId, ResolvedFunction | null>,
  diagnostics: Diagnostic[],
): void {
  const graph = new Map<SymbolicId, Call<SymbolicId, { module: string; span: Span }>[]>();
  for (const [id, fn] of functions) {
    if (!fn) continue;
    graph.set(
      id,
      fn.uses.flatMap((use) =>
        use.kind === 'function'
          ? [{ callee: use.id, site: { module: fn.module, span: use.span } }]
          : [],
      ),
    );
  }
  for (const { call, cycle } of recursiveCalls(graph)) {
    diagnostics.push(errorAt(msg.recursion(cycle), call.site.module, call.site.span));
  }
}
