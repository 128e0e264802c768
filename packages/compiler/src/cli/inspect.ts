/** `syclts inspect DIR`: what `syclts build` wrote, for people. */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  type BindingInfo,
  type DeviceImage,
  type Program,
  typeName,
  type WorkgroupSizeDim,
} from '@syclts/dsl';
import * as msg from '../diagnostics/cli-messages.js';
import { errorAt, formatDiagnostic } from '../diagnostics/diagnostic.js';
import { textureWgslType as textureTypeText } from '../emit/print/textures.js';
import type { CliIo } from './io.js';
import { imageStem, PROGRAM_FILE, propertiesFile, wgslFile } from './output-files.js';

export async function runInspect(dir: string, io: CliIo): Promise<number> {
  const path = join(resolve(io.cwd, dir), PROGRAM_FILE);
  let program: Program;
  try {
    program = JSON.parse(await readFile(path, 'utf8')) as Program;
  } catch (error) {
    const problem = msg.unreadableProgram((error as Error).message);
    io.stderr(`${formatDiagnostic(errorAt(problem, path, null))}\n`);
    return 1;
  }
  io.stdout(`${describeProgram(program)}\n`);
  return 0;
}

function describeProgram(program: Program): string {
  const count = program.images.length;
  const head = `program format ${program.version}, ${count} device image${count === 1 ? '' : 's'}`;
  return [head, ...program.images.map((image, index) => describeImage(image, index, count))].join(
    '\n\n',
  );
}

function describeImage(image: DeviceImage, index: number, count: number): string {
  const stem = imageStem(index, count, image.id);
  const modes = (['native', 'emulated'] as const).filter((m) => image.wgsl[m] !== undefined);
  const lines = [`device image ${image.id}`];
  for (const mode of modes) {
    const text = image.wgsl[mode]!;
    lines.push(`  ${mode} WGSL: ${wgslFile(stem, mode)} (${text.split('\n').length - 1} lines)`);
  }
  lines.push(`  properties: ${propertiesFile(stem)}`);

  const constants = Object.entries(image.specConstants);
  lines.push(`  specialization constants (${constants.length}):`);
  for (const [id, c] of constants) {
    const ids = c.leaves.map((l) => l.id);
    const range = ids.length === 1 ? `${ids[0]}` : `${ids[0]}..${ids[ids.length - 1]}`;
    const value = c.defaultValue === null ? 'host default' : JSON.stringify(c.defaultValue);
    const at = image.emulation ? `, emulated @${c.emulationOffset}` : '';
    lines.push(`    @id ${range.padEnd(7)} ${id}: ${typeName(c.type)} = ${value}${at}`);
    if (c.leaves.length > 1) {
      const leaves = c.leaves.map((l) => `${l.id}:${pathText(l.path)}@${l.offset}/${l.size}`);
      lines.push(`                  leaves ${leaves.join(' ')}`);
    }
  }
  if (image.emulation) {
    const e = image.emulation;
    lines.push(
      `  emulation buffer: @group(${e.group}) @binding(${e.binding}) ${e.addressSpace}, ${e.records} records of ${e.size} bytes`,
    );
  }
  if (image.launchSlots) {
    const s = image.launchSlots;
    lines.push(
      `  launch slots: @group(${s.group}) @binding(${s.binding})${s.override ? `, taken while override ${s.override} is true` : ''}`,
    );
  }

  const globals = Object.entries(image.deviceGlobals);
  lines.push(`  device globals (${globals.length}):`);
  for (const [id, g] of globals) {
    const flags = [
      `${g.size} bytes at ${g.offset} of the ${g.deviceImageScope ? 'image' : 'program'} buffer`,
      `host access ${g.hostAccess}`,
      ...(g.initialValue === null ? [] : [`initial value ${JSON.stringify(g.initialValue)}`]),
      ...(g.deviceImageScope ? ['device image scope'] : []),
      ...(g.initMode ? [`init mode ${g.initMode}`] : []),
      ...(g.implementInCsr ? ['implement in CSR'] : []),
    ];
    lines.push(`    ${id}: ${typeName(g.type)} (${flags.join(', ')})`);
  }

  const kernels = Object.entries(image.kernels);
  lines.push(`  kernels (${kernels.length}):`);
  for (const [id, k] of kernels) {
    const range = `${k.ndRange ? 'nd-range' : 'range'} ${k.dimensions}D`;
    const memory =
      k.workgroupMemory.kind === 'literal'
        ? `${k.workgroupMemory.bytes} bytes`
        : 'sized by specialization constants';
    lines.push(`    ${id} -> ${k.entryPoint}`);
    lines.push(
      `      ${range}, workgroup size (${k.workgroupSize.map(sizeText).join(', ')}), workgroup memory ${memory}`,
    );
    lines.push(`      variants: ${k.variants.join(', ')}`);
    if (k.launchSlots.length > 0) lines.push(`      launch slots: ${k.launchSlots.join(', ')}`);
    for (const b of k.bindings) lines.push(`      ${bindingText(b)}`);
    if (k.specConstants.length)
      lines.push(`      specialization constants: ${k.specConstants.join(', ')}`);
    if (k.deviceGlobals.length) lines.push(`      device globals: ${k.deviceGlobals.join(', ')}`);
  }
  return lines.join('\n');
}

function bindingText(b: BindingInfo): string {
  const at = `@binding(${b.binding})`;
  switch (b.kind) {
    case 'launch': {
      const fields = b.fields.map((f) => `${f.name}: ${typeName(f.type)} @${f.offset}`);
      const size =
        b.records === null ? `${b.size} bytes` : `${b.records} records of ${b.size} bytes`;
      return `${at} launch uniform, ${size}: ${fields.join(', ')}`;
    }
    case 'accessor':
      return `${at} accessor ${b.arg}: array<${typeName(b.element)}> (${b.access})`;
    case 'deviceGlobals':
      return `${at} device globals: the ${b.storage} buffer`;
    case 'texture':
      return `${at} ${b.texture.kind} ${b.arg}: ${textureTypeText(b.texture)}`;
    case 'log':
      return `${at} console.log buffer`;
  }
}

function sizeText(d: WorkgroupSizeDim): string {
  return d.kind === 'literal' ? String(d.value) : `${d.symbolicId}[@id ${d.leafId}]`;
}

function pathText(path: readonly (string | number)[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('') || '.';
}
