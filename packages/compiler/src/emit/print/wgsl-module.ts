/** One device image as one WGSL module, for the native or the emulated variant. */
import type { DataType, LineMap, SpecConstantMode } from '@syclts/dsl';
import { valueAt } from '../../link/layout.js';
import type {
  LinkedGlobalStorage,
  LinkedImage,
  LinkedKernel,
  LinkedSpecConstant,
} from '../../link/linked-image.js';
import { LAUNCH_FIELDS, sourceName } from '../../link/wgsl-names.js';
import { CodePrinter, ImageScope } from './code.js';
import { literal } from './literals.js';
import { WgslTypes } from './types.js';

export function printModule(
  image: LinkedImage,
  mode: SpecConstantMode,
): { readonly code: string; readonly lineMap: LineMap } {
  const types = new WgslTypes();
  const scope = new ImageScope(image, mode, types);
  const kernels = image.kernels.filter((k) => k.info.variants.includes(mode));
  const sections: string[][] = [];

  if (image.specConstants.length > 0) {
    sections.push(
      mode === 'native' ? nativeConstants(image, types) : emulatedConstants(image, types),
    );
  }
  for (const storage of [image.globalStorage.program, image.globalStorage.image]) {
    if (storage) sections.push(globalStorage(image, storage, types));
  }
  for (const kernel of kernels) sections.push(kernelResources(kernel, scope));
  for (const fn of image.functions) {
    const { module } = fn;
    const printer = new CodePrinter(scope, null, module);
    const params = fn.decl.params
      .map((p) => `${sourceName(p.name)}: ${printer.type(p.type, p.name)}`)
      .join(', ');
    const result = fn.decl.returnType
      ? ` -> ${printer.type(fn.decl.returnType, fn.decl.name)}`
      : '';
    const body =
      fn.decl.body.kind === 'ir'
        ? printer.block(fn.decl.body.block, 1)
        : printer.wgsl(fn.decl.body.parts);
    const mark = (line: string) => scope.origins.mark(line, module, fn.decl.span);
    sections.push([
      `// ${fn.symbolicId}`,
      mark(`fn ${fn.wgslName}(${params})${result} {`),
      ...body,
      mark('}'),
    ]);
  }
  for (const kernel of kernels) sections.push(entryPoint(kernel, scope));

  const head = [`// syclts device image '${image.id}' (${mode} specialization constants)`];
  if (types.usesF16) head.push('enable f16;');
  const structs = types.declarations();
  const text = `${[head, ...(structs.length ? [structs] : []), ...sections].map((s) => s.join('\n')).join('\n\n')}\n`;
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
    lines.push(`// ${c.symbolicId}`);
    for (const [i, leaf] of c.info.leaves.entries()) {
      const folded = c.info.defaultValue === null ? null : valueAt(c.info.defaultValue, leaf.path);
      const init = folded === null ? '' : ` = ${literal(folded, leaf.scalar)}`;
      lines.push(
        `@id(${leaf.id}) override ${c.leafNames[i]!}: ${types.scalar(leaf.scalar)}${init};`,
      );
    }
    if (c.info.type.kind !== 'scalar') {
      const type = types.type(c.info.type, c.wgslName);
      lines.push(`var<private> ${c.wgslName}: ${type} = ${rebuild(c, types)};`);
    }
  }
  return lines;
}

/** A composite constant's value built from its leaf overrides, depth-first like the leaves. */
function rebuild(c: LinkedSpecConstant, types: WgslTypes): string {
  let next = 0;
  const build = (type: DataType, hint: string): string => {
    switch (type.kind) {
      case 'scalar':
      case 'atomic':
        return c.leafNames[next++]!;
      case 'vector':
      case 'matrix': {
        const n = type.kind === 'vector' ? type.size : type.columns * type.rows;
        return `${types.type(type, hint)}(${Array.from({ length: n }, () => c.leafNames[next++]!).join(', ')})`;
      }
      case 'array':
        return `${types.type(type, hint)}(${Array.from({ length: type.length }, () => build(type.element, hint)).join(', ')})`;
      case 'struct':
        return `${types.type(type, hint)}(${type.fields.map((f) => build(f.type, `${hint}_${f.name}`)).join(', ')})`;
    }
  };
  return build(c.info.type, c.wgslName);
}

function emulatedConstants(image: LinkedImage, types: WgslTypes): string[] {
  const emulation = image.emulation!;
  const fields = image.specConstants.map(
    (c) =>
      `  ${c.wgslName}: ${types.type(c.info.type, c.wgslName, 'host')}, // ${c.symbolicId} @ ${c.info.emulationOffset}`,
  );
  const space = emulation.addressSpace === 'uniform' ? 'uniform' : 'storage, read';
  return [
    `struct ${emulation.structName} {`,
    ...fields,
    '}',
    `@group(${emulation.group}) @binding(${emulation.binding}) var<${space}> ${emulation.wgslName}: ${emulation.structName};`,
  ];
}

function kernelResources(kernel: LinkedKernel, scope: ImageScope): string[] {
  const { types } = scope;
  const launch = kernel.info.bindings.find((b) => b.kind === 'launch')!;
  const args = launch.kind === 'launch' ? launch.fields.filter((f) => f.role === 'arg') : [];
  const lines = [
    `// ${kernel.symbolicId}`,
    `struct ${kernel.launchStructName} {`,
    `  ${LAUNCH_FIELDS.globalRange}: vec3<u32>,`,
    `  @size(16) ${LAUNCH_FIELDS.groupOffset}: vec3<u32>,`,
    ...args.map(
      (f) =>
        `  ${sourceName(f.name)}: ${types.type(f.type, `${kernel.launchName}_${f.name}`, 'host')},`,
    ),
    '}',
    `@group(${launch.group}) @binding(${launch.binding}) var<uniform> ${kernel.launchName}: ${kernel.launchStructName};`,
  ];
  for (const b of kernel.info.bindings) {
    if (b.kind !== 'accessor') continue;
    const space = b.access === 'read' ? 'storage, read' : 'storage, read_write';
    const element = types.type(b.element, `${kernel.accessorNames[b.arg]!}`);
    lines.push(
      `@group(${b.group}) @binding(${b.binding}) var<${space}> ${kernel.accessorNames[b.arg]!}: array<${element}>;`,
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

function entryPoint(kernel: LinkedKernel, scope: ImageScope): string[] {
  const { module } = kernel.info.source;
  const printer = new CodePrinter(scope, kernel, module);
  const mark = (line: string) => scope.origins.mark(line, module, kernel.decl.span);
  const size = kernel.workgroupSize.map((v) => scope.size(v));
  const launch = kernel.launchName;
  const guard = kernel.info.ndRange
    ? []
    : [`  if (any(gid >= ${launch}.${LAUNCH_FIELDS.globalRange})) {`, '    return;', '  }'];
  return [
    `@compute @workgroup_size(${size.join(', ')})`,
    `fn ${kernel.info.entryPoint}(`,
    '  @builtin(workgroup_id) wgid: vec3<u32>,',
    '  @builtin(local_invocation_id) lid: vec3<u32>,',
    '  @builtin(local_invocation_index) lindex: u32,',
    ') {',
    `  let wid = wgid + ${launch}.${LAUNCH_FIELDS.groupOffset};`,
    `  let gid = wid * vec3<u32>(${size.join(', ')}) + lid;`,
    ...guard,
  ]
    .map(mark)
    .concat(printer.block(kernel.decl.body, 1), mark('}'));
}
