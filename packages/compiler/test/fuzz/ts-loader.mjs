/**
 * Node module hooks that let a plain `node` process run the compiler and the fuzzer from their
 * TypeScript sources, as vitest does: workspace packages resolve through their `@syclts/source`
 * condition, `.js` specifiers find the `.ts` file beside them, and TypeScript is transpiled
 * file by file (no type check) into a cache keyed by content, so that a restarted worker
 * starts in a fraction of a second. Used as `node --import ./ts-loader.mjs entry.ts`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

const SOURCE_CONDITION = '@syclts/source';

/** @type {typeof import('typescript') | null} */
let ts = null;
const cacheDir = join(tmpdir(), 'syclts-ts-loader');

export async function resolve(specifier, context, next) {
  const conditions = [...context.conditions, SOURCE_CONDITION];
  if (specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const candidate = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (candidate.protocol === 'file:' && existsSync(fileURLToPath(candidate))) {
      return { url: candidate.href, shortCircuit: true, format: 'module' };
    }
  }
  const resolved = await next(specifier, { ...context, conditions });
  return resolved.url.endsWith('.ts') ? { ...resolved, format: 'module' } : resolved;
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts') || !url.startsWith('file:')) return next(url, context);
  const text = readFileSync(fileURLToPath(url), 'utf8');
  const cached = join(cacheDir, `${createHash('sha1').update(url).update(text).digest('hex')}.js`);
  if (existsSync(cached))
    return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
  ts ??= (await import('typescript')).default;
  const { outputText } = ts.transpileModule(text, {
    fileName: fileURLToPath(url),
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
      sourceMap: false,
      inlineSourceMap: true,
    },
  });
  mkdirSync(cacheDir, { recursive: true });
  // Written aside and renamed, so a worker starting alongside never reads half a file.
  writeFileSync(`${cached}.${process.pid}`, outputText);
  renameSync(`${cached}.${process.pid}`, cached);
  return { format: 'module', source: outputText, shortCircuit: true };
}

if (isMainThread) register(import.meta.url, import.meta.url);
