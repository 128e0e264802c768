/**
 * The package's device code built as a user's bundle builds it: every `src/*.sycl.ts` module
 * compiled and linked into one program, and each module's exported host objects attached to
 * their IDs, as the integration footer does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { build } from '@syclts/compiler';
import { attach } from '@syclts/dsl';
// What the footer of a module using group functions imports.
import '@syclts/runtime/groups';
import * as histogram from '../../src/histogram.sycl.ts';
import * as operation from '../../src/operation.sycl.ts';
import * as reduce from '../../src/reduce.sycl.ts';
import * as scan from '../../src/scan.sycl.ts';
import * as sort from '../../src/sort.sycl.ts';

const LOADED: Readonly<Record<string, Record<string, unknown>>> = {
  'histogram.sycl.ts': histogram,
  'operation.sycl.ts': operation,
  'reduce.sycl.ts': reduce,
  'scan.sycl.ts': scan,
  'sort.sycl.ts': sort,
};

const src = new URL('../../src/', import.meta.url);
const files = readdirSync(src).filter((f) => f.endsWith('.sycl.ts'));
const modules = files.map((file) => ({
  module: `node_modules/@syclts/algorithms/src/${file}`,
  source: readFileSync(new URL(file, src), 'utf8'),
}));
const { program, diagnostics } = build(modules, { specConstants: 'both' });
if (!program) throw new Error(diagnostics.map((d) => d.message).join('\n'));
for (const file of files) {
  const exports = LOADED[file];
  if (!exports) throw new Error(`test/support/program.ts: ${file} is not imported here`);
  attach(
    program,
    Object.entries(exports)
      .filter(
        (entry): entry is [string, object] =>
          typeof entry[1] === 'object' && entry[1] !== null && 'declaration' in entry[1],
      )
      .map(
        ([name, value]) => [value, `node_modules/@syclts/algorithms/src/${file}#${name}`] as const,
      ),
  );
}

export { program };
