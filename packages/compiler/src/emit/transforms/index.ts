/**
 * The transforms between the link step and the printer, in the order they run on each variant
 * of an image: each takes IR and gives IR, so that the printer only prints.
 */
import type { DataType, SpecConstantMode, SymbolicId } from '@syclts/dsl';
import type { Block } from '../../ir/device-code.js';
import type { WgslPart } from '../../ir/device-object.js';
import { type IrProblem, validateFunction, validateKernel } from '../../ir/validate.js';
import { containsBool } from '../../link/layout.js';
import type { LinkedImage } from '../../link/linked-image.js';
import { elementsInPlace, emulatedElements } from './emulated-elements.js';
import { type HostPlaces, hostStorage, hostStorageParts } from './host-storage.js';
import { passLaunchSlot } from './launch-slot.js';
import { inlinePipelineConstants } from './pipeline-constants.js';
import { signedMinMax } from './signed-min-max.js';

/** A transform broke an invariant of the IR: a compiler bug, reported where it shows. */
export class IrInvariantError extends Error {
  constructor(
    readonly transform: string,
    readonly problems: readonly (IrProblem & { readonly module: string })[],
  ) {
    super(
      `syclts compiler bug: the IR after '${transform}' breaks its invariants:\n${problems
        .map((p) => `  ${p.module}:${p.span.line}:${p.span.column}: ${p.message}`)
        .join('\n')}`,
    );
    this.name = 'IrInvariantError';
  }
}

/** What a transform knows of the variant it rewrites. */
interface Variant {
  readonly places: HostPlaces;
  readonly native: boolean;
  /** Value arguments read from overrides (the folded entry point's), fixed at pipeline creation. */
  readonly foldedArgs: ReadonlySet<string>;
  /** Functions that take the launch slot as their last parameter. */
  readonly takesSlot: ReadonlySet<SymbolicId>;
  /** The emulation record is held as 16-byte words (`LinkedImage.emulation.inWords`). */
  readonly inWords: boolean;
}

interface Transform {
  readonly name: string;
  /** Whether the transform can change anything in the variant (a cheap test, to skip the walk). */
  readonly applies: (image: LinkedImage, native: boolean) => boolean;
  readonly block: (block: Block<SymbolicId>, variant: Variant) => Block<SymbolicId>;
  /** Raw WGSL bodies: only their spliced references can change. */
  readonly parts: (
    parts: readonly WgslPart<SymbolicId>[],
    places: HostPlaces,
    specType: (id: SymbolicId) => DataType | null,
  ) => readonly WgslPart<SymbolicId>[];
}

const TRANSFORMS: readonly Transform[] = [
  {
    name: 'host-storage',
    applies: holdsBool,
    block: (block, { places }) => hostStorage(block, places),
    parts: hostStorageParts,
  },
  {
    name: 'pipeline-constants',
    applies: () => true,
    block: (block, { native, foldedArgs }) => inlinePipelineConstants(block, native, foldedArgs),
    parts: (parts) => parts,
  },
  {
    name: 'signed-min-max',
    applies: () => true,
    block: (block) => signedMinMax(block),
    parts: (parts) => parts,
  },
  {
    name: 'emulated-elements',
    applies: (image, native) =>
      !native &&
      image.specConstants.some((c) =>
        elementsInPlace(c.info.type, image.emulation?.inWords ?? false),
      ),
    block: (block, { inWords }) => emulatedElements(block, inWords),
    parts: (parts) => parts,
  },
  {
    name: 'launch-slot',
    applies: (image, native) => !native && image.functions.some((f) => f.readsSpecConstants),
    block: (block, { takesSlot }) => passLaunchSlot(block, takesSlot),
    parts: (parts) => parts,
  },
];

/** The functions that take the launch slot in variant `mode`: those reading emulated constants. */
export function slotTakers(image: LinkedImage, mode: SpecConstantMode): ReadonlySet<SymbolicId> {
  return new Set(
    mode === 'emulated'
      ? image.functions.filter((f) => f.readsSpecConstants).map((f) => f.symbolicId)
      : [],
  );
}

/**
 * The image's code as the variant `mode` prints it. With `validate`, the IR is checked after
 * each transform and an `IrInvariantError` thrown at the first that breaks it.
 */
export function transformVariant(
  image: LinkedImage,
  mode: SpecConstantMode,
  validate: boolean,
): LinkedImage {
  const native = mode === 'native';
  const takesSlot = slotTakers(image, mode);
  const noArgs: ReadonlySet<string> = new Set();
  const inWords = image.emulation?.inWords ?? false;
  const inFunctions: Variant = {
    places: { launchArgs: new Set(), emulated: !native },
    native,
    foldedArgs: noArgs,
    takesSlot,
    inWords,
  };
  const specTypes = new Map(image.specConstants.map((c) => [c.symbolicId, c.info.type]));
  const specType = (id: SymbolicId) => specTypes.get(id) ?? null;
  let current = image;
  for (const t of TRANSFORMS) {
    if (!t.applies(image, native)) continue;
    const kernels = current.kernels.map((k) => {
      const launchArgs = new Set(
        k.decl.params.filter((p) => !k.bindingNames.has(p.name)).map((p) => p.name),
      );
      const places = { launchArgs, emulated: !native };
      const body = t.block(k.decl.body, { places, native, foldedArgs: noArgs, takesSlot, inWords });
      const folded = k.info.foldedArgs;
      if (!native || !folded) return { ...k, decl: { ...k.decl, body } };
      const foldedArgs = new Set(folded.args.map((a) => a.name));
      const foldedBody = t.block(k.foldedBody ?? k.decl.body, {
        places,
        native,
        foldedArgs,
        takesSlot,
        inWords,
      });
      return { ...k, decl: { ...k.decl, body }, foldedBody };
    });
    const functions = current.functions.map((f) => {
      const { body } = f.decl;
      const next =
        body.kind === 'ir'
          ? { kind: 'ir' as const, block: t.block(body.block, inFunctions) }
          : { kind: 'wgsl' as const, parts: t.parts(body.parts, inFunctions.places, specType) };
      return { ...f, decl: { ...f.decl, body: next } };
    });
    current = { ...current, kernels, functions };
    if (validate) check(t.name, current);
  }
  return current;
}

/** Whether any host-shareable place the variant's code reads holds a bool. */
function holdsBool(image: LinkedImage, native: boolean): boolean {
  return (
    image.deviceGlobals.some((g) => containsBool(g.info.type)) ||
    (!native && image.specConstants.some((c) => containsBool(c.info.type))) ||
    image.kernels.some((k) => k.decl.params.some((p) => p.kind === 'value' && containsBool(p.type)))
  );
}

function check(transform: string, image: LinkedImage): void {
  const problems: (IrProblem & { module: string })[] = [];
  for (const k of image.kernels) {
    const found: IrProblem[] = [];
    validateKernel(k.decl, found);
    if (k.foldedBody) validateKernel({ ...k.decl, body: k.foldedBody }, found);
    problems.push(...found.map((p) => ({ ...p, module: k.info.source.module })));
  }
  for (const f of image.functions) {
    const found: IrProblem[] = [];
    validateFunction(f.decl, found);
    problems.push(...found.map((p) => ({ ...p, module: f.module })));
  }
  if (problems.length > 0) throw new IrInvariantError(transform, problems);
}
