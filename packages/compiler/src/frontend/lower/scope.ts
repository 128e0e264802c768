/** What names mean inside device code. */
import type { DataType } from '@syclts/dsl';
import type { GroupScope, MatrixRef } from '../../ir/device-code.js';
import type { KernelParam, WorkgroupArrayDecl } from '../../ir/device-object.js';

export type LocalBinding =
  /** A `let`/`const` or a function parameter; `name` is its IR name (the source name). */
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
  /** `const g = item.getGroup()` (or `getSubGroup()`): a name for the group, not a value. */
  | { readonly kind: 'group'; readonly scope: GroupScope }
  /** `const m = jointMatrix(...)`: a sub-group's matrix, named in joint-matrix statements only. */
  | { readonly kind: 'matrix'; readonly matrix: MatrixRef }
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
