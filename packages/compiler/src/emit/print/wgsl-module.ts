/** One device image as one WGSL module, for the native or the emulated variant. */
import {
  type CollectiveLowering,
  type LineMap,
  type SpecConstantMode,
  type SymbolicId,
  usesLaunchSlots,
} from '@syclts/dsl';
import type { Block } from '../../ir/device-code.js';
import { holdsGroups } from '../../ir/effects.js';
import { valueAt } from '../../link/layout.js';
import type { LinkedGlobalStorage, LinkedImage, LinkedKernel } from '../../link/linked-image.js';
import {
  commentText,
  EMULATION_WORDS,
  LAUNCH_FIELDS,
  LAUNCH_SLOT,
  Namer,
} from '../../link/wgsl-names.js';
import { CodePrinter, ImageScope, launchPlace } from './code.js';
import { GroupPrinter, SUBGROUP_BUILTINS } from './collectives.js';
import { BuiltinHelpers } from './helpers.js';
import { fromLeaves } from './leaves.js';
import { literal } from './literals.js';
import { logDeclarations } from './log.js';
import { MatrixPrinter } from './matrices.js';
import { ImageNames } from './names.js';
import { textureWgslType } from './textures.js';
import { WgslTypes } from './types.js';

/** `taken`: the image's module-scope names (its `wgslNames`) as a set, which stays as it is. */
export function printModule(
  image: LinkedImage,
  mode: SpecConstantMode,
  lowering: CollectiveLowering,
  taken: ReadonlySet<string>,
): { readonly code: string; readonly lineMap: LineMap } {
  const names = new ImageNames(image, taken);
  const namer = Namer.over(taken);
  const types = new WgslTypes(namer);
  const helpers = new BuiltinHelpers(namer, types);
  const groups = new GroupPrinter(lowering, namer, types, helpers);
  const matrices = new MatrixPrinter(lowering, namer, types);
  const scope = new ImageScope(image, mode, types, names, helpers, groups, matrices);
  const kernels = image.kernels.filter((k) => k.info.variants.includes(mode));
  const sections: string[][] = [];

  if (image.specConstants.length > 0) {
    sections.push(
      mode === 'native' ? nativeConstants(image, types) : emulatedConstants(image, types),
    );
  }
  if (kernels.some((k) => usesLaunchSlots(k.info, mode))) sections.push(launchSlots(image));
  if (kernels.length > 0) sections.push([`override ${image.groupOffsetOverride}: bool = true;`]);
  if (image.log) sections.push(logDeclarations(image.log));
  for (const storage of [image.globalStorage.program, image.globalStorage.image]) {
    if (storage) sections.push(globalStorage(image, storage, types));
  }
  for (const kernel of kernels) sections.push(kernelResources(kernel, scope));
  for (const fn of image.functions) {
    const { module } = fn;
    const printer = new CodePrinter(scope, null, module, names.function(fn.symbolicId));
    const params = fn.decl.params.map(
      (p) => `${printer.names.of(p.name)}: ${printer.type(p.type, p.name)}`,
    );
    if (scope.slotParams.has(fn.symbolicId)) params.push(`${LAUNCH_SLOT}: u32`);
    const result = fn.decl.returnType
      ? ` -> ${printer.type(fn.decl.returnType, fn.decl.name)}`
      : '';
    const body =
      fn.decl.body.kind === 'ir'
        ? printer.block(fn.decl.body.block, 1)
        : printer.wgsl(fn.decl.body.parts);
    const mark = (line: string) => scope.origins.mark(line, module, fn.decl.span);
    sections.push([
      `// ${commentText(fn.symbolicId)}`,
      mark(`fn ${fn.wgslName}(${params.join(', ')})${result} {`),
      ...body,
      mark('}'),
    ]);
  }
  const subgroups = new Set<LinkedKernel>(
    lowering === 'subgroups' ? kernels.filter(usesSubgroupBuiltins) : [],
  );
  for (const kernel of kernels) {
    sections.push(entryPoint(kernel, scope, subgroups.has(kernel)));
    if (mode === 'native' && kernel.foldedBody) {
      sections.push(entryPoint(kernel, scope, subgroups.has(kernel), kernel.foldedBody));
    }
  }

  const head = [
    `// syclts device image '${commentText(image.id)}' (${mode} specialization constants)`,
  ];
  if (types.usesF16) head.push('enable f16;');
  if (subgroups.size > 0) head.push('enable subgroups;');
  if ([...subgroups].some((k) => k.decl.subGroupSize !== undefined)) {
    head.push('enable subgroup_size_control;');
  }
  if (matrices.usesNative) head.push('enable chromium_experimental_subgroup_matrix;');
  const structs = types.declarations();
  const functions = [
    ...groups.declarations(),
    ...matrices.declarations(),
    ...helpers.declarations(),
  ];
  const text = `${[head, ...[structs, functions].filter((d) => d.length > 0), ...sections].map((s) => s.join('\n')).join('\n\n')}\n`;
  const { code, map } = scope.origins.lineMap(text, image.sources);
  return { code, lineMap: map };
}

/**
 * A buffer of device globals: a struct of the globals this image uses, each member at its
 * offset in the buffer (a leading pad, and `@size` up to the next member), so that every image
 * reads the program's shared buffer alike while declaring only what it uses.
 */
function globalStorage(
  image: LinkedImage,
  storage: LinkedGlobalStorage,
  types: WgslTypes,
): string[] {
  const globals = image.deviceGlobals
    .filter((g) => g.storage === storage.storage)
    .sort((a, b) => a.info.offset - b.info.offset);
  const members = globals.map((g, i) => {
    const type = types.type(g.info.type, g.wgslName, 'host');
    const next = globals[i + 1];
    const size = next ? `@size(${next.info.offset - g.info.offset}) ` : '';
    return `  ${size}${g.wgslName}: ${type},`;
  });
  const first = globals[0]!.info.offset;
  if (first > 0) members.unshift(`  _pad: array<vec4<u32>, ${first / 16}>,`);
  return [
    `struct ${storage.structName} {`,
    ...members,
    '}',
    `@group(0) @binding(${storage.binding}) var<storage, read_write> ${storage.wgslName}: ${storage.structName};`,
  ];
}

function nativeConstants(image: LinkedImage, types: WgslTypes): string[] {
  const lines: string[] = [];
  for (const c of image.specConstants) {
    if (lines.length > 0) lines.push('');
    lines.push(`// ${commentText(c.symbolicId)}`);
    for (const [i, leaf] of c.info.leaves.entries()) {
      const folded = c.info.defaultValue === null ? null : valueAt(c.info.defaultValue, leaf.path);
      const init = folded === null ? '' : ` = ${literal(folded, leaf.scalar)}`;
      lines.push(
        `@id(${leaf.id}) override ${c.leafNames[i]!}: ${types.scalar(leaf.scalar)}${init};`,
      );
    }
    if (c.info.type.kind !== 'scalar') {
      const type = types.type(c.info.type, c.wgslName);
      let next = 0;
      const value = fromLeaves(c.info.type, c.wgslName, types, 'value', () => c.leafNames[next++]!);
      lines.push(`var<private> ${c.wgslName}: ${type} = ${value};`);
    }
  }
  return lines;
}

/**
 * The emulation buffer: an array of records, one per launch (see `launchSlots`). A record is a
 * member per constant, the last sized up to the record's size so that the array's stride is the
 * record size, or (`inWords`) one member of the record's 16-byte words.
 */
function emulatedConstants(image: LinkedImage, types: WgslTypes): string[] {
  const emulation = image.emulation!;
  const last = image.specConstants.length - 1;
  const fields = emulation.inWords
    ? [
        ...image.specConstants.map(
          (c) => `  // ${commentText(c.symbolicId)} @ ${c.info.emulationOffset}`,
        ),
        `  ${EMULATION_WORDS}: array<vec4<u32>, ${emulation.size / 16}>,`,
      ]
    : image.specConstants.map((c, i) => {
        const size = i === last ? `@size(${emulation.size - c.info.emulationOffset}) ` : '';
        return `  ${size}${c.wgslName}: ${types.type(c.info.type, c.wgslName, 'host')}, // ${commentText(c.symbolicId)} @ ${c.info.emulationOffset}`;
      });
  const declaration =
    emulation.addressSpace === 'uniform'
      ? `var<uniform> ${emulation.wgslName}: array<${emulation.structName}, ${emulation.records}>;`
      : `var<storage, read> ${emulation.wgslName}: array<${emulation.structName}>;`;
  return [
    `struct ${emulation.structName} {`,
    ...fields,
    '}',
    `@group(${emulation.group}) @binding(${emulation.binding}) ${declaration}`,
  ];
}

/**
 * The buffer kernels take their launch slot from (its layout is the runtime's contract, see
 * docs/device-images.md), and the workgroup variable that hands the slot to every invocation.
 */
function launchSlots(image: LinkedImage): string[] {
  const slots = image.launchSlots!;
  return [
    `struct ${slots.structName} {`,
    '  next: atomic<u32>,',
    '  table: array<u32>,',
    '}',
    `@group(${slots.group}) @binding(${slots.binding}) var<storage, read_write> ${slots.wgslName}: ${slots.structName};`,
    `var<workgroup> ${slots.workgroupName}: u32;`,
    `override ${slots.override}: bool = true;`,
  ];
}

function kernelResources(kernel: LinkedKernel, scope: ImageScope): string[] {
  const { types } = scope;
  const launch = kernel.info.bindings.find((b) => b.kind === 'launch')!;
  const args = launch.kind === 'launch' ? launch.fields.filter((f) => f.role === 'arg') : [];
  const lines = [
    `// ${commentText(kernel.symbolicId)}`,
    `struct ${kernel.launchStructName} {`,
    `  ${LAUNCH_FIELDS.globalRange}: vec3<u32>,`,
    ...(launch.kind === 'launch' && launch.fields.some((f) => f.role === 'slotMode')
      ? [`  ${LAUNCH_FIELDS.slotMode}: u32,`]
      : []),
    `  @size(16) ${LAUNCH_FIELDS.groupOffset}: vec3<u32>,`,
    ...args.map(
      (f) =>
        `  ${scope.names.launchField(kernel, f.name)}: ${types.type(f.type, `${kernel.launchName}_${f.name}`, 'host')},`,
    ),
    '}',
    `@group(${launch.group}) @binding(${launch.binding}) var<uniform> ${kernel.launchName}: ${
      launch.kind === 'launch' && launch.records !== null
        ? `array<${kernel.launchStructName}, ${launch.records}>`
        : kernel.launchStructName
    };`,
  ];
  const folded = scope.mode === 'native' ? kernel.info.foldedArgs : undefined;
  for (const f of args) {
    const name = folded?.args.find((a) => a.name === f.name)?.override;
    if (name) lines.push(`override ${name}: ${types.type(f.type, name, 'host')};`);
  }
  for (const b of kernel.info.bindings) {
    if (b.kind !== 'accessor') continue;
    const space = b.access === 'read' ? 'storage, read' : 'storage, read_write';
    const name = kernel.bindingNames.get(b.arg)!;
    const element = types.type(b.element, name);
    lines.push(
      `@group(${b.group}) @binding(${b.binding}) var<${space}> ${name}: array<${element}>;`,
    );
  }
  for (const b of kernel.info.bindings) {
    if (b.kind !== 'texture') continue;
    const name = kernel.bindingNames.get(b.arg)!;
    lines.push(
      `@group(${b.group}) @binding(${b.binding}) var ${name}: ${textureWgslType(b.texture)};`,
    );
  }
  for (const w of kernel.workgroupArrays) {
    const element = types.type(w.element, w.wgslName);
    if (w.lengthOverride !== null) {
      lines.push(`override ${w.lengthOverride}: u32 = ${scope.size(w.length)};`);
      lines.push(`var<workgroup> ${w.wgslName}: array<${element}, ${w.lengthOverride}>;`);
    } else {
      lines.push(`var<workgroup> ${w.wgslName}: array<${element}, ${scope.size(w.length)}>;`);
    }
  }
  return lines;
}

/** Whether a kernel reads WGSL's sub-group built-ins in the `subgroups` lowering. */
export function usesSubgroupBuiltins(kernel: LinkedKernel): boolean {
  return holdsGroups(kernel.decl.body);
}

/**
 * The kernel's entry point; with `folded`, its folded entry point (`KernelInfo.foldedArgs`): that
 * body, whose folded arguments are read from their overrides.
 */
function entryPoint(
  kernel: LinkedKernel,
  scope: ImageScope,
  subgroups: boolean,
  folded?: Block<SymbolicId>,
): string[] {
  const { module } = kernel.info.source;
  const printer = new CodePrinter(
    scope,
    kernel,
    module,
    scope.names.function(kernel.symbolicId),
    folded ? kernel.info.foldedArgs!.args : null,
  );
  const mark = (line: string) => scope.origins.mark(line, module, kernel.decl.span);
  const size = kernel.workgroupSize.map((v) => scope.size(v));
  const launch = launchPlace(kernel);
  const guard =
    kernel.info.ndRange || kernel.rangeGuardInBody
      ? []
      : [`  if (any(gid >= ${launch}.${LAUNCH_FIELDS.globalRange})) {`, '    return;', '  }'];
  const required = subgroups ? kernel.decl.subGroupSize : undefined;
  return [
    `@compute @workgroup_size(${size.join(', ')})${required === undefined ? '' : ` @subgroup_size(${required})`}`,
    `fn ${folded ? kernel.info.foldedArgs!.entryPoint : kernel.info.entryPoint}(`,
    '  @builtin(workgroup_id) wgid: vec3<u32>,',
    '  @builtin(local_invocation_id) lid: vec3<u32>,',
    '  @builtin(local_invocation_index) lindex: u32,',
    ...(subgroups ? SUBGROUP_BUILTINS.map((b) => `  ${b}`) : []),
    ') {',
    ...slotLines(kernel, scope),
    `  let wid = wgid + select(vec3<u32>(), ${launch}.${LAUNCH_FIELDS.groupOffset}, ${scope.image.groupOffsetOverride});`,
    `  let gid = wid * vec3<u32>(${size.join(', ')}) + lid;`,
    ...(scope.image.log && kernel.info.bindings.some((b) => b.kind === 'log')
      ? [`  ${scope.image.log.itemName} = gid;`]
      : []),
    ...guard,
  ]
    .map(mark)
    .concat(printer.block(folded ?? kernel.decl.body, 1), mark('}'));
}

/**
 * The slot the kernel reads its values at: taken (see takeSlot), or 0 where it reads an array
 * of records but takes no slot in this variant (the bindings then point at its record).
 */
function slotLines(kernel: LinkedKernel, scope: ImageScope): string[] {
  if (usesLaunchSlots(kernel.info, scope.mode)) return takeSlot(kernel, scope.image);
  const records =
    (scope.mode === 'emulated' && kernel.info.specConstants.length > 0) ||
    launchPlace(kernel) !== kernel.launchName;
  return records ? [`  let ${LAUNCH_SLOT} = 0u;`] : [];
}

/**
 * The launch slot: 0 when the launch uniform's `slot_mode` is 0 (the bindings point at this
 * launch's record; a uniform branch, no barrier), else the table's entry for this workgroup's
 * arrival, taken by its first invocation. Both ways it is uniform, so values read through it
 * may bound loops that hold barriers. With the image's override false (a pipeline for launches
 * that bind their own record) the branch is dead and the slot the constant 0: every value is
 * read at a constant index, as a kernel without slots reads it (the slot as a value known only
 * at run time cost the 3x3 convolution 14% on an NVIDIA H100).
 */
function takeSlot(kernel: LinkedKernel, image: LinkedImage): string[] {
  const { wgslName: slots, workgroupName: shared, override } = image.launchSlots!;
  const launch = kernel.info.bindings.find((b) => b.kind === 'launch');
  const first =
    launch?.kind === 'launch' && launch.records !== null
      ? `${kernel.launchName}[0]`
      : kernel.launchName;
  return [
    `  var ${LAUNCH_SLOT} = 0u;`,
    `  if (${override} && ${first}.${LAUNCH_FIELDS.slotMode} != 0u) {`,
    '    if (lindex == 0u) {',
    `      ${shared} = ${slots}.table[atomicAdd(&${slots}.next, 1u)];`,
    '    }',
    `    ${LAUNCH_SLOT} = workgroupUniformLoad(&${shared});`,
    '  }',
  ];
}
