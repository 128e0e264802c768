/**
 * esbuild: link in `onEnd`, when the build has finished, and rewrite the output files that hold
 * the placeholder (in memory with `write: false`, on disk otherwise), or remove them when the
 * link fails. The metafile tells which
 * inputs and outputs belong to the build. Each output's `.map` is shifted to match: the
 * replacement never spans lines, so only columns after it on its own line move.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import type { BuildResult, OutputFile, PluginBuild } from 'esbuild';
import { rootRelativePath } from '../module-path.js';
import { findPlaceholders, type PlaceholderMatch, programLiteral } from '../program-module.js';
import type { PluginState } from '../state.js';

export function setupEsbuild(build: PluginBuild, state: PluginState): void {
  // The metafile's paths are relative to esbuild's working directory.
  const workingDir = build.initialOptions.absWorkingDir ?? process.cwd();
  state.bundlerRoot = workingDir;
  build.initialOptions.metafile = true;
  build.onEnd(async (result: BuildResult) => {
    if (result.errors.length > 0 || !result.metafile) return;
    const outputs = new Outputs(result);
    const inBundle = new Set(
      Object.keys(result.metafile.inputs)
        .map((input) => resolve(workingDir, input))
        .filter((input) => state.isDeviceModule(input))
        .map((input) => rootRelativePath(state.root, input)),
    );
    const texts = new Map<string, string>();
    for (const output of Object.keys(result.metafile.outputs)) {
      if (!/\.[cm]?js$/.test(output)) continue;
      const path = resolve(workingDir, output);
      const text = await outputs.read(path);
      if (text !== null && findPlaceholders(text).length > 0) texts.set(path, text);
    }
    if (texts.size === 0) return;
    const linked = state.modules.link(state.options, (path) => inBundle.has(path));
    const warnings = linked.warnings.map((text) => ({ text }));
    if (!linked.ok) {
      // An output without its program would load and fail far from the cause: leave none.
      for (const path of texts.keys()) await outputs.remove(path);
      return { errors: linked.errors.map((text) => ({ text })), warnings };
    }
    const literal = programLiteral(linked.program);
    for (const [path, text] of texts) {
      const places = findPlaceholders(text);
      await outputs.write(path, replaceAll(text, places, literal));
      const map = await outputs.read(`${path}.map`);
      if (map !== null) {
        await outputs.write(`${path}.map`, shiftMap(map, text, places, literal.length));
      }
    }
    return { warnings };
  });
}

/** esbuild's outputs, in memory (`write: false`) or on disk. */
class Outputs {
  readonly #result: BuildResult;
  constructor(result: BuildResult) {
    this.#result = result;
  }

  async read(path: string): Promise<string | null> {
    if (this.#result.outputFiles) {
      return this.#result.outputFiles.find((file) => file.path === path)?.text ?? null;
    }
    return readFile(path, 'utf8').catch(() => null);
  }

  async write(path: string, text: string): Promise<void> {
    const files = this.#result.outputFiles;
    const index = files?.findIndex((file) => file.path === path) ?? -1;
    if (files && index !== -1) files[index] = outputFile(path, text);
    else await writeFile(path, text);
  }

  /** Drops an output and its source map. */
  async remove(path: string): Promise<void> {
    const files = this.#result.outputFiles;
    if (!files) {
      await Promise.all([rm(path, { force: true }), rm(`${path}.map`, { force: true })]);
      return;
    }
    for (let i = files.length - 1; i >= 0; i--) {
      const file = files[i]!.path;
      if (file === path || file === `${path}.map`) files.splice(i, 1);
    }
  }
}

function replaceAll(text: string, places: readonly PlaceholderMatch[], literal: string): string {
  let out = '';
  let at = 0;
  for (const { start, end } of places) {
    out += text.slice(at, start) + literal;
    at = end;
  }
  return out + text.slice(at);
}

/** Moves the generated columns that follow each replaced placeholder on its line. */
function shiftMap(
  mapText: string,
  code: string,
  places: readonly PlaceholderMatch[],
  literalLength: number,
): string {
  const map = JSON.parse(mapText) as { mappings: string };
  const lines = decode(map.mappings);
  for (const { start, end } of [...places].reverse()) {
    const line = code.slice(0, start).split('\n').length - 1;
    const column = start - (code.lastIndexOf('\n', start - 1) + 1);
    const delta = literalLength - (end - start);
    for (const segment of lines[line] ?? []) {
      if (segment[0] >= end - start + column) segment[0] += delta;
    }
  }
  map.mappings = encode(lines);
  return JSON.stringify(map);
}

function outputFile(path: string, text: string): OutputFile {
  return { path, contents: new TextEncoder().encode(text), text, hash: '' };
}
