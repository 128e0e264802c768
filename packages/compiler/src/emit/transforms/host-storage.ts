/**
 * Host-shareable memory has no bool: device globals, the launch uniform and the emulation
 * buffer hold it as u32. This transform marks every read of such a place whose value holds a
 * bool with `fromHost`, and every value stored into one with `toHost`, so that the printer
 * converts exactly there.
 */
import type { DataType } from '@syclts/dsl';
import {
  mapAll,
  mapChildren,
  mapStmt,
  mapUpdateParts,
  type StmtMapper,
} from '../../ir/children.js';
import type { Block, Expr, Stmt, UpdateStmt } from '../../ir/device-code.js';
import type { WgslPart } from '../../ir/device-object.js';
import { containsBool } from '../../link/layout.js';

export interface HostPlaces {
  /** The kernel's value arguments (its launch uniform); empty in a device function. */
  readonly launchArgs: ReadonlySet<string>;
  /** The variant reads specialization constants from the emulation buffer. */
  readonly emulated: boolean;
}

/**
 * The temporary a composite holding bool goes through on its way into a device global, as the
 * conversion reads it once per leaf. It lives in a block of its own whose initializer is
 * evaluated before the name is in scope; `#` keeps its IR name apart from every JavaScript
 * identifier, and the namer gives it a WGSL name of its own.
 */
export const STORED = '#stored';

export function hostStorage<R>(block: Block<R>, places: HostPlaces): Block<R> {
  return new HostStorage<R>(places).block(block);
}

/** Raw WGSL sees a specialization constant through the same conversion device code does. */
export function hostStorageParts<R>(
  parts: readonly WgslPart<R>[],
  places: HostPlaces,
  typeOf: (ref: R) => DataType | null,
): readonly WgslPart<R>[] {
  return parts.map((p) => {
    if (p.kind !== 'ref' || !places.emulated) return p;
    const type = typeOf(p.ref);
    if (!type || !containsBool(type)) return p;
    const place: Expr<R> = { op: 'specConstant', ref: p.ref, type, span: p.span };
    return { kind: 'value', expr: { op: 'fromHost', place, type, span: p.span }, span: p.span };
  });
}

class HostStorage<R> {
  readonly #mapper: StmtMapper<R> = {
    expr: (e) => this.value(e),
    block: (b) => this.block(b),
    let: (s) => {
      const init = s.init && this.value(s.init);
      return init === s.init ? s : { ...s, init };
    },
    update: (s) => this.update(s),
    scoped: (f) => f(),
  };

  constructor(private readonly places: HostPlaces) {}

  block(block: Block<R>): Block<R> {
    return mapAll(block, (s) => this.stmt(s));
  }

  stmt(s: Stmt<R>): Stmt<R> {
    if (
      s.kind === 'assign' &&
      s.operator === '=' &&
      rootOf(s.target).op === 'deviceGlobal' &&
      (s.target.type.kind === 'array' || s.target.type.kind === 'struct') &&
      containsBool(s.target.type)
    ) {
      const { target } = s;
      const stored: Expr<R> = { op: 'local', name: STORED, type: target.type, span: s.value.span };
      const body: Stmt<R>[] = [
        {
          kind: 'let',
          name: STORED,
          mutable: false,
          type: target.type,
          init: this.value(s.value),
          span: s.span,
        },
        { ...s, target: this.place(target), value: toHost(stored) },
      ];
      return { kind: 'block', body, span: s.span };
    }
    return mapStmt(s, this.#mapper);
  }

  /**
   * In a `for` header a composite store converts its value in place (read once per leaf), as
   * there is no room for a temporary.
   */
  update(s: UpdateStmt<R>): UpdateStmt<R> {
    if (s.kind === 'assign' && rootOf(s.target).op === 'deviceGlobal') {
      const value = this.value(s.value);
      return {
        ...s,
        target: this.place(s.target),
        value: containsBool(s.target.type) ? toHost(value) : value,
      };
    }
    if (s.kind === 'assign' || s.kind === 'increment') {
      return mapUpdateParts(s, (e) => (e === s.target ? this.place(e) : this.value(e)));
    }
    return mapUpdateParts(s, (e) => this.value(e));
  }

  /** An expression whose value is used. */
  value(e: Expr<R>): Expr<R> {
    if (isPlace(e) && rootOf(e).op === 'deviceGlobal') {
      const place = this.place(e);
      return containsBool(e.type) ? fromHost(place) : place;
    }
    if (e.op === 'param') return this.param(e);
    if (e.op === 'specConstant' && this.places.emulated && containsBool(e.type)) {
      return fromHost(e);
    }
    if (e.op === 'atomic') {
      const pointer = this.place(e.pointer);
      const args = mapAll(e.args, (a) => this.value(a));
      return pointer === e.pointer && args === e.args ? e : { ...e, pointer, args };
    }
    if (e.op === 'builtin' && e.name === 'arrayLength') return e;
    return mapChildren(e, (c) => this.value(c));
  }

  /** A place written, or read as a whole further out: only its indices are values here. */
  place(e: Expr<R>): Expr<R> {
    switch (e.op) {
      case 'index': {
        const base = this.place(e.base);
        const index = this.value(e.index);
        return base === e.base && index === e.index ? e : { ...e, base, index };
      }
      case 'member':
      case 'swizzle': {
        const base = this.place(e.base);
        return base === e.base ? e : { ...e, base };
      }
      case 'param':
        return this.param(e);
      case 'deviceGlobal':
        return e;
      default:
        return this.value(e);
    }
  }

  /** A value argument lives in the launch uniform whatever the access. */
  param(e: Expr<R>): Expr<R> {
    return e.op === 'param' && this.places.launchArgs.has(e.name) && containsBool(e.type)
      ? fromHost(e)
      : e;
  }
}

function isPlace<R>(e: Expr<R>): boolean {
  return e.op === 'deviceGlobal' || e.op === 'index' || e.op === 'member';
}

/** Where a place starts: through indices, members and (written) vector components. */
function rootOf<R>(e: Expr<R>): Expr<R> {
  let root = e;
  while (root.op === 'index' || root.op === 'member' || root.op === 'swizzle') root = root.base;
  return root;
}

const fromHost = <R>(place: Expr<R>): Expr<R> => ({
  op: 'fromHost',
  place,
  type: place.type,
  span: place.span,
});
const toHost = <R>(value: Expr<R>): Expr<R> => ({
  op: 'toHost',
  value,
  type: value.type,
  span: value.span,
});
