/**
 * What lowering one body shares: the resolver, the reporter, the scopes, the kernel's shape,
 * the calls made and the accessors' modes. Each construct's lowering is a function taking it as
 * `cx`, one file per kind of construct.
 */

import type { AccessMode, DataType } from '@syclts/dsl';
import type { Message } from '../../diagnostics/codes.js';
import { type Expression, unwrap } from '../ast.js';
import type { Reporter } from '../report.js';
import type { ConstValue } from '../resolver/constants.js';
import type { Resolver } from '../resolver/resolver.js';
import type { Scopes } from './scope.js';

export type Node = { readonly start: number; readonly end: number };

export interface KernelShape {
  readonly dimensions: 1 | 2 | 3;
  readonly nd: boolean;
}

export type CallSite = { readonly name: string; readonly node: Node };

export interface Lowering {
  readonly resolver: Resolver;
  readonly reporter: Reporter;
  readonly scopes: Scopes;
  /** The kernel's shape, or null in a device function. */
  readonly kernel: KernelShape | null;
  /** Functions of this module that device code called (for recursion checks). */
  readonly calls: CallSite[];
  /** Accessor arguments by IR name, for write checks. */
  readonly accessModes: ReadonlyMap<string, AccessMode>;
  /** Declared return type of a device function (null: returns nothing), or undefined in a kernel. */
  readonly returnType: DataType | null | undefined;
  /** Names of `const`s whose parts are written, which WGSL needs as `var`. */
  readonly mutatedConsts: Set<string>;
  /** How many loops enclose the statement being lowered. */
  loopDepth: number;
  /** How many copies of the statement being lowered the enclosing `unroll`s write out. */
  unrolledCopies: number;
  /** Whether the body holds a `conditional` for the last pass to lower (conditionals.ts). */
  conditionals: boolean;
}

export function createLowering(
  resolver: Resolver,
  reporter: Reporter,
  scopes: Scopes,
  body: {
    readonly kernel: KernelShape | null;
    readonly accessModes?: ReadonlyMap<string, AccessMode>;
    readonly returnType?: DataType | null;
  },
): Lowering {
  return {
    resolver,
    reporter,
    scopes,
    kernel: body.kernel,
    calls: [],
    accessModes: body.accessModes ?? new Map(),
    returnType: body.returnType,
    mutatedConsts: new Set(),
    loopDepth: 0,
    unrolledCopies: 1,
    conditionals: false,
  };
}

export function spanOf(cx: Lowering, node: Node) {
  return cx.reporter.source.span(node.start, node.end);
}

export function textOf(cx: Lowering, node: Node): string {
  return cx.reporter.source.slice(node);
}

/** Reports `message` at `node`; null, for lowerings that give up there. */
export function fail(cx: Lowering, node: Node, message: Message): null {
  cx.reporter.error(node, message);
  return null;
}

/** The entity of a top-level name, unless a local shadows it. */
export function topEntity(cx: Lowering, node: Expression) {
  const n = unwrap(node);
  const root = n.type === 'MemberExpression' ? unwrap(n.object) : n;
  if (root.type === 'Identifier' && cx.scopes.lookup(root.name)) return undefined;
  return cx.resolver.entityOf(n);
}

/** A build-time constant (abstract in WGSL terms), when the expression is one. */
export function constantOf(cx: Lowering, node: Expression): ConstValue | null {
  if (mentionsLocal(cx, node)) return null;
  const v = cx.resolver.evalConst(node, 'device');
  return v && (v.kind === 'number' || v.kind === 'bool') ? v : null;
}

export function mentionsLocal(cx: Lowering, node: Expression): boolean {
  const n = unwrap(node);
  switch (n.type) {
    case 'Identifier':
      return cx.scopes.lookup(n.name) !== undefined;
    case 'MemberExpression':
      return (
        mentionsLocal(cx, n.object) || (n.computed && mentionsLocal(cx, n.property as Expression))
      );
    case 'UnaryExpression':
      return mentionsLocal(cx, n.argument);
    case 'BinaryExpression':
      return mentionsLocal(cx, n.left as Expression) || mentionsLocal(cx, n.right);
    case 'LogicalExpression':
      return mentionsLocal(cx, n.left) || mentionsLocal(cx, n.right);
    case 'ConditionalExpression':
      return (
        mentionsLocal(cx, n.test) ||
        mentionsLocal(cx, n.consequent) ||
        mentionsLocal(cx, n.alternate)
      );
    default:
      return false;
  }
}

export function readOnlyAccessor(cx: Lowering, name: string): boolean {
  return cx.accessModes.get(name) === 'read';
}
