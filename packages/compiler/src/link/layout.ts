/**
 * What the link step asks of host-shareable layouts beyond the ABI module's rules (@syclts/dsl:
 * sizes, alignments, offsets): where a storage layout breaks the uniform-only rules, the scalar
 * leaves of a type, and what a type contains.
 */
import {
  type DataType,
  type JsonValue,
  memberLayout,
  roundUp,
  type ScalarName,
  type SpecConstantLeaf,
  scalarSize,
  sizeOf,
  strideOf,
  structLayout,
} from '@syclts/dsl';

/**
 * Where a struct's natural (storage) layout breaks a uniform-only rule: arrays and structs must
 * start at multiples of 16, array strides must be multiples of 16, and a struct member must be
 * followed by at least roundUp(16, size) bytes. Returns a readable path to the first offender,
 * or null when the layout is valid in the uniform address space as it is.
 */
export function uniformViolation(
  members: readonly { readonly name: string; readonly type: DataType }[],
  start = 0,
): string | null {
  const { offsets, end } = memberLayout(
    members.map((m) => m.type),
    'storage',
    start,
  );
  for (const [i, member] of members.entries()) {
    const offset = offsets[i]!;
    const next = offsets[i + 1] ?? roundUp(16, end);
    const problem = typeViolation(member.type, offset, next - offset);
    if (problem !== null) return problem === '' ? member.name : `${member.name}${problem}`;
  }
  return null;
}

function typeViolation(type: DataType, offset: number, room: number): string | null {
  if (type.kind === 'array') {
    if (offset % 16 !== 0 || strideOf(type.element) % 16 !== 0) return '';
    const inner = typeViolation(type.element, 0, strideOf(type.element));
    return inner === null ? null : `[]${inner}`;
  }
  if (type.kind === 'struct') {
    if (offset % 16 !== 0 || room < roundUp(16, sizeOf(type))) return '';
    const inner = uniformViolation(type.fields);
    return inner === null ? null : `.${inner}`;
  }
  return null;
}

/**
 * Scalars a composite constant may hold and still be rebuilt from the emulation buffer's words
 * where it is read (one load each); past that the buffer stays in storage.
 */
export const MAX_WORD_LEAVES = 64;

/**
 * The scalar leaves of a type, depth-first, members in declaration order, matrices column by
 * column; offsets in the storage layout. `id` counts from `firstId`.
 */
export function leavesOf(type: DataType, firstId: number): SpecConstantLeaf[] {
  const leaves: SpecConstantLeaf[] = [];
  const visit = (t: DataType, offset: number, path: (string | number)[]): void => {
    switch (t.kind) {
      case 'scalar':
      case 'atomic': {
        const scalar = t.scalar;
        leaves.push({
          id: firstId + leaves.length,
          offset,
          size: scalarSize(scalar),
          scalar,
          path,
        });
        return;
      }
      case 'vector': {
        const s = scalarSize(t.component);
        for (let i = 0; i < t.size; i++)
          visit({ kind: 'scalar', scalar: t.component }, offset + i * s, [...path, i]);
        return;
      }
      case 'matrix': {
        const column = strideOf({ kind: 'vector', component: 'f32', size: t.rows });
        for (let c = 0; c < t.columns; c++) {
          for (let r = 0; r < t.rows; r++) {
            visit({ kind: 'scalar', scalar: 'f32' }, offset + c * column + r * 4, [
              ...path,
              c * t.rows + r,
            ]);
          }
        }
        return;
      }
      case 'array': {
        const stride = strideOf(t.element);
        for (let i = 0; i < t.length; i++) visit(t.element, offset + i * stride, [...path, i]);
        return;
      }
      case 'struct': {
        const { offsets } = structLayout(t);
        for (const [i, field] of t.fields.entries())
          visit(field.type, offset + offsets[i]!, [...path, field.name]);
        return;
      }
    }
  };
  visit(type, 0, []);
  return leaves;
}

/** The scalar at a leaf's `path` inside a host value, or null when the value has none there. */
export function valueAt(
  value: JsonValue,
  path: readonly (string | number)[],
): number | boolean | null {
  let v: JsonValue | undefined = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return null;
    v = Array.isArray(v) ? v[key as number] : v[key as string];
  }
  return typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

export function containsScalar(type: DataType, scalar: ScalarName): boolean {
  switch (type.kind) {
    case 'scalar':
    case 'atomic':
      return type.scalar === scalar;
    case 'vector':
      return type.component === scalar;
    case 'matrix':
      return scalar === 'f32';
    case 'array':
      return containsScalar(type.element, scalar);
    case 'struct':
      return type.fields.some((f) => containsScalar(f.type, scalar));
  }
}

export const containsBool = (type: DataType): boolean => containsScalar(type, 'bool');
