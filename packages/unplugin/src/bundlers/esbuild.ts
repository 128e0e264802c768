/**
 * esbuild: link in `onEnd`, when the build has finished, and rewrite the output files that hold
 * the placeholder (in memory with `write: false`, on disk otherwise). The metafile tells which
 * inputs and outputs belong to the build.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { BuildResult, OutputFile, PluginBuild } from 'esbuild';
import { rootRelativePath } from '../module-path.js';
import { findPlaceholders, programLiteral } from '../program-module.js';
import type { PluginState } from '../state.js';

export function setupEsbuild(build: PluginBuild, state: PluginState): void {
  // The metafile's paths are relative to esbuild's working directory.
  const workingDir = build.initialOptions.absWorkingDir ?? process.cwd();
  state.bundlerRoot = workingDir;
  build.initialOptions.metafile = true;
  build.onEnd(async (result: BuildResult) => {
    if (result.errors.length > 0 || !result.metafile) return;
    const inputs = Object.keys(result.metafile.inputs).map((input) => resolve(workingDir, input));
    const inBundle = new Set(
      inputs
        .filter((input) => state.isDeviceModule(input))
        .map((input) => rootRelativePath(state.root, input)),
    );
    const outputs = Object.keys(result.metafile.outputs)
      .filter((output) => /\.[cm]?js$/.test(output))
      .map((output) => resolve(workingDir, output));
    const texts = new Map<string, string>();
    for (const output of outputs) {
      const inMemory = result.outputFiles?.find((file) => file.path === output);
      const text = inMemory ? inMemory.text : await readFile(output, 'utf8');
      if (findPlaceholders(text).length > 0) texts.set(output, text);
    }
    if (texts.size === 0) return;
    const linked = state.modules.link(state.options, (path) => inBundle.has(path));
    const warnings = linked.warnings.map((text) => ({ text }));
    if (!linked.ok) return { errors: linked.errors.map((text) => ({ text })), warnings };
    const literal = programLiteral(linked.program);
    for (const [output, text] of texts) {
      let rewritten = '';
      let at = 0;
      for (const { start, end } of findPlaceholders(text)) {
        rewritten += text.slice(at, start) + literal;
        at = end;
      }
      rewritten += text.slice(at);
      const index = result.outputFiles?.findIndex((file) => file.path === output) ?? -1;
      if (result.outputFiles && index !== -1) {
        result.outputFiles[index] = outputFile(output, rewritten);
      } else {
        await writeFile(output, rewritten);
      }
    }
    return { warnings };
  });
}

function outputFile(path: string, text: string): OutputFile {
  const contents = new TextEncoder().encode(text);
  return { path, contents, text, hash: '' };
}
