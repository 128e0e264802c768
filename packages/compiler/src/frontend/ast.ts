/** Small helpers over oxc-parser's ESTree nodes. */
import type { Expression, Node } from 'oxc-parser';

export type { Expression, Node };

/** Strips parentheses and type-only wrappers (`as`, `satisfies`, `!`), which change no value. */
export function unwrap(node: Expression): Expression {
  let current = node;
  for (;;) {
    switch (current.type) {
      case 'ParenthesizedExpression':
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'TSTypeAssertion':
      case 'TSInstantiationExpression':
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** `object.method` as a callee: the object (unwrapped) and the method's name, else null. */
export function methodOf(callee: Expression): { object: Expression; method: string } | null {
  const c = unwrap(callee);
  return c.type === 'MemberExpression' && !c.computed && c.property.type === 'Identifier'
    ? { object: unwrap(c.object), method: c.property.name }
    : null;
}

/** The name of a non-computed property key, or of a string-literal key. */
export function propertyName(key: Node, computed: boolean): string | null {
  if (key.type === 'Identifier' && !computed) return key.name;
  if (key.type === 'Literal' && typeof key.value === 'string') return key.value;
  return null;
}

export const DSL_SPECIFIER = '@syclts/dsl';

/**
 * Calls `enter` on every node under `root` (depth-first, parents before children); a node for
 * which it returns false keeps its children from being visited.
 */
export function walk(root: unknown, enter: (node: { readonly type: string }) => unknown): void {
  if (root === null || typeof root !== 'object') return;
  if (Array.isArray(root)) {
    for (const item of root) walk(item, enter);
    return;
  }
  const node = root as Record<string, unknown>;
  if (typeof node.type === 'string' && enter(node as { readonly type: string }) === false) return;
  for (const key in node) {
    if (key === 'parent') continue;
    const value = node[key];
    if (value !== null && typeof value === 'object') walk(value, enter);
  }
}
