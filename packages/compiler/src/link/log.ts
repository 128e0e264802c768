/**
 * `console.log` at link time: which kernels print (they, or a function they call, hold a `log`
 * statement), and the image's formats, numbered in the order the kernels and then the
 * functions hold them. Each format is found again by its statement's module and offset.
 */
import type { DataType, LogFormat, LogScalar, LogValueType, SymbolicId } from '@syclts/dsl';
import { findUpdates } from '../ir/children.js';
import type { Block, UpdateStmt } from '../ir/device-code.js';
import type { LinkedLog } from './linked-image.js';
import type { Reach } from './reach.js';
import type { ResolvedKernel } from './resolve.js';
import type { Namer } from './wgsl-names.js';

type LogStmt = Extract<UpdateStmt<SymbolicId>, { kind: 'log' }>;

function logsIn(block: Block<SymbolicId>): LogStmt[] {
  return findUpdates(block, (s): s is LogStmt => s.kind === 'log');
}

/** Whether the kernel or a function it calls prints. */
export function prints(kernel: ResolvedKernel, reach: Reach): boolean {
  return (
    logsIn(kernel.decl.body).length > 0 ||
    reach.functions.some((f) => f.decl.body.kind === 'ir' && logsIn(f.decl.body.block).length > 0)
  );
}

/** A printed value's type; the front end lets only scalars and vectors through (validated). */
function logValueType(t: DataType): LogValueType {
  if (t.kind === 'vector') return { scalar: t.component as LogScalar, size: t.size };
  if (t.kind === 'scalar') return { scalar: t.scalar as LogScalar, size: 1 };
  throw new Error(`console.log of a ${t.kind}: the IR validator lets none through`);
}

/** The key of a `log` statement's format: its module and offset. */
export function logKey(module: string, s: { readonly span: { readonly start: number } }): string {
  return `${module}:${s.span.start}`;
}

/** The image's log buffer and formats, when a kernel prints. */
export function linkLog(
  kernels: readonly { readonly kernel: ResolvedKernel; readonly reach: Reach }[],
  binding: number,
  names: Namer,
): LinkedLog {
  const formats: LogFormat[] = [];
  const index = new Map<string, number>();
  const add = (module: string, block: Block<SymbolicId>) => {
    for (const s of logsIn(block)) {
      const key = logKey(module, s);
      if (index.has(key)) continue;
      index.set(key, formats.length);
      formats.push({
        source: { module, line: s.span.line, column: s.span.column },
        parts: s.parts,
        args: s.args.map((a) => logValueType(a.type)),
      });
    }
  };
  for (const { kernel } of kernels) add(kernel.module, kernel.decl.body);
  for (const { reach } of kernels) {
    for (const f of reach.functions)
      if (f.decl.body.kind === 'ir') add(f.module, f.decl.body.block);
  }
  return {
    group: 0,
    binding,
    wgslName: names.call('log_buffer'),
    structName: names.call('LogBuffer'),
    itemName: names.call('log_item'),
    formats,
    index,
  };
}
