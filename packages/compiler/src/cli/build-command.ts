/** `syclts build <files...> --out-dir DIR [--split ...] [--spec-constants ...] [--root DIR] [--validate-ir]` */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { SpecConstantMode } from '@syclts/dsl';
import { build } from '../build.js';
import * as msg from '../diagnostics/cli-messages.js';
import { type Diagnostic, errorAt, formatDiagnostic } from '../diagnostics/diagnostic.js';
import { propertySets } from '../emit/property-sets.js';
import type { SpecConstantsOption, SplitMode } from '../link/index.js';
import type { CliIo } from './io.js';
import { imageStem, PROGRAM_FILE, propertiesFile, wgslFile } from './output-files.js';

export interface BuildCommand {
  readonly files: readonly string[];
  readonly outDir: string;
  readonly root: string;
  readonly split: SplitMode;
  readonly specConstants: SpecConstantsOption;
  /** Check the IR after each transform (a self-check of the compiler). */
  readonly validateIr: boolean;
}

export async function runBuild(command: BuildCommand, io: CliIo): Promise<number> {
  const root = resolve(io.cwd, command.root);
  const sources: { module: string; source: string }[] = [];
  const texts: Record<string, string> = {};
  const problems: Diagnostic[] = [];
  for (const file of command.files) {
    const path = resolve(io.cwd, file);
    const module = relative(root, path).split(sep).join('/');
    // Module paths prefix every symbolic ID: they must stay inside the root to stay stable.
    if (module.startsWith('../') || isAbsolute(module)) {
      problems.push(errorAt(msg.outsideRoot(command.root), file, null));
      continue;
    }
    try {
      const source = await readFile(path, 'utf8');
      sources.push({ module, source });
      texts[module] = source;
    } catch (error) {
      const cause = (error as NodeJS.ErrnoException).code ?? String(error);
      problems.push(errorAt(msg.unreadableSource(file, cause), module, null));
    }
  }
  const result = problems.length
    ? { program: null, diagnostics: problems }
    : build(sources, command);
  for (const d of result.diagnostics) io.stderr(`${formatDiagnostic(d, texts[d.file])}\n`);
  if (!result.program) return 1;

  const outDir = resolve(io.cwd, command.outDir);
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, PROGRAM_FILE), `${JSON.stringify(result.program, null, 2)}\n`);
  for (const [index, image] of result.program.images.entries()) {
    const stem = imageStem(index, result.program.images.length, image.id);
    for (const mode of ['native', 'emulated'] as const satisfies SpecConstantMode[]) {
      const text = image.wgsl[mode];
      if (text !== undefined) await writeFile(join(outDir, wgslFile(stem, mode)), text);
    }
    await writeFile(
      join(outDir, propertiesFile(stem)),
      `${JSON.stringify(propertySets(image), null, 2)}\n`,
    );
  }
  const count = result.program.images.length;
  io.stdout(
    `syclts: ${count} device image${count === 1 ? '' : 's'} written to ${command.outDir}\n`,
  );
  return 0;
}
