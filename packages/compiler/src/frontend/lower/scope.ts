/** What names mean inside device code. */
import type { DataType } from '@syclts/dsl';
import type { KernelParam, WorkgroupArrayDecl } from '../../ir/device-object.js';

export type LocalBinding =
  /** A `let`/`const` or a function parameter; `name` is its WGSL name. */
  | {
      readonly kind: 'local';
      readonly name: string;
      readonly type: DataType;
      readonly mutable: boolean;
      readonly parameter: boolean;
    }
  /** A local whose declaration was reported: uses stay silent instead of cascading. */
  | { readonly kind: 'poisoned' }
  | { readonly kind: 'kernelArg'; readonly param: KernelParam }
  | { readonly kind: 'workgroupArray'; readonly decl: WorkgroupArrayDecl }
  | { readonly kind: 'item' }
  | { readonly kind: 'handler' }
  /** The kernel body's `args` or `local` parameter bound whole: its members are looked up by name. */
  | {
      readonly kind: 'members';
      readonly of: 'argument' | 'workgroup array';
      readonly members: ReadonlyMap<
        string,
        Extract<LocalBinding, { kind: 'kernelArg' | 'workgroupArray' }>
      >;
    };

export class Scopes {
  private readonly stack: Map<string, LocalBinding>[] = [new Map()];

  lookup(name: string): LocalBinding | undefined {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const b = this.stack[i]?.get(name);
      if (b) return b;
    }
    return undefined;
  }

  /** The names device code can write here, innermost last. */
  visibleNames(): string[] {
    return this.stack.flatMap((m) => [...m.keys()]);
  }

  /** The IR names of the locals and parameters in scope. */
  localNames(): string[] {
    return this.stack.flatMap((m) =>
      [...m.values()].flatMap((b) => (b.kind === 'local' ? [b.name] : [])),
    );
  }

  declare(name: string, binding: LocalBinding): boolean {
    const top = this.stack[this.stack.length - 1]!;
    if (top.has(name)) return false;
    top.set(name, binding);
    return true;
  }

  within<T>(fn: () => T): T {
    this.stack.push(new Map());
    try {
      return fn();
    } finally {
      this.stack.pop();
    }
  }
}

/**
 * The IR name of a local: its source name, with characters WGSL identifiers cannot hold spelled
 * out. The emitter keeps WGSL keywords and generated names apart (see link/wgsl-names.ts).
 */
export function localName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
    ? name
    : `l_${name.replace(/[^A-Za-z0-9_]/g, (c) => `_${c.codePointAt(0)!.toString(16)}_`)}`;
}
