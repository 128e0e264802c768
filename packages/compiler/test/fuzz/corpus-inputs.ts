/**
 * Inputs made from the valid corpus: a module with a few tokens replaced, deleted, duplicated
 * or inserted (built with the unmutated modules it imports), and token soup after the DSL's
 * imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Rand } from '../frontend/property/generator.js';
import type { FuzzInput, SpecConstantsChoice } from './input.js';
import { TOKEN, VOCABULARY } from './vocabulary.js';

const dir = new URL('../corpus/valid/', import.meta.url);
const corpus = new Map(
  readdirSync(dir)
    .filter((f) => f.endsWith('.sycl.ts'))
    .sort()
    .map((f) => [`corpus/${f}`, readFileSync(new URL(f, dir), 'utf8')]),
);
const names = [...corpus.keys()];
const tokenised = new Map(names.map((n) => [n, corpus.get(n)!.match(TOKEN) ?? []]));

export const MODES: readonly SpecConstantsChoice[] = ['native', 'emulated', 'both'];

/** The corpus modules a module imports, transitively. */
function importsOf(module: string, seen = new Set<string>()): Set<string> {
  for (const m of corpus.get(module)!.matchAll(/from '\.\/([\w.-]+)'/g)) {
    const path = `corpus/${m[1]}`;
    if (corpus.has(path) && !seen.has(path)) {
      seen.add(path);
      importsOf(path, seen);
    }
  }
  return seen;
}

export function mutatedCorpus(r: Rand): FuzzInput {
  const module = r.pick(names);
  const tokens = [...tokenised.get(module)!];
  const edits = 1 + r.int(4);
  for (let e = 0; e < edits; e++) {
    const i = r.int(Math.max(1, tokens.length));
    const word = r.pick(VOCABULARY);
    const kind = r.int(4);
    if (kind === 0) tokens[i] = word;
    else if (kind === 1) tokens.splice(i, 1);
    else if (kind === 2) tokens.splice(i, 0, tokens[i] ?? '');
    else tokens.splice(i, 0, word);
  }
  const others = [...importsOf(module)].filter((m) => m !== module);
  return {
    family: 'mutated-corpus',
    sources: [
      { module, source: tokens.join('') },
      ...others.map((m) => ({ module: m, source: corpus.get(m)! })),
    ],
    specConstants: r.pick(MODES),
  };
}

export function tokenSoup(r: Rand): FuzzInput {
  const words = Array.from({ length: r.int(80) }, () => r.pick([...VOCABULARY, ' ', '\n']));
  return {
    family: 'token-soup',
    sources: [
      {
        module: 'fuzz/soup.sycl.ts',
        source: `import { kernel, f32, u32, accessor } from '@syclts/dsl';\n${words.join(' ')}`,
      },
    ],
    specConstants: r.pick(MODES),
  };
}

/** Random text, control characters and unpaired surrogates included. */
export function randomText(r: Rand): FuzzInput {
  const chars = Array.from({ length: r.int(200) }, () =>
    String.fromCharCode(r.chance(0.8) ? 32 + r.int(95) : r.int(0x10000)),
  );
  return {
    family: 'random-text',
    sources: [{ module: 'fuzz/text.sycl.ts', source: chars.join('') }],
    specConstants: 'native',
  };
}
