/**
 * Joint matrices on the CPU, as the plain lowering runs them (emit/print/matrices.ts): each item
 * holds the whole matrix, row by row, in a local's cell; the items of a sub-group compute the
 * same values, so no item waits for another. Products are each multiplied in the accumulator's
 * type (f16 widened to f32 exactly) and summed in order, in WGSL's arithmetic.
 */
import type { ScalarName, SymbolicId } from '@syclts/dsl';
import type { JointMatrixStmt, JointMatrixType } from '../ir/device-code.js';
import { binaryScalar, convertScalar } from './numbers.js';
import { type Cell, child, lengthOf, type Place, read, write } from './places.js';
import type { Scalar, Value } from './values.js';

/** What a statement reads besides its matrices: its memory, and its values in order. */
export interface MatrixOperands {
  /** The load's or store's memory. */
  readonly memory: Place | null;
  /** The fill's or apply's value, or the load's or store's offset and stride. */
  readonly args: readonly Value[];
  /** The cell of a matrix local. */
  readonly cell: (name: string) => Cell;
  readonly fail: (why: string) => never;
}

/** A new matrix: every element zero. */
export function zeroMatrix(type: JointMatrixType): Value[] {
  return Array.from({ length: type.rows * type.columns }, () => 0);
}

export function runMatrix(s: JointMatrixStmt<SymbolicId>, o: MatrixOperands): void {
  const type = s.matrix.type;
  const cell = o.cell(s.matrix.name);
  const elements = cell.value as Scalar[];
  switch (s.fn) {
    case 'declare':
      return;
    case 'fill':
      cell.value = elements.map(() => o.args[0]!);
      return;
    case 'apply': {
      const op = s.operator;
      cell.value = elements.map((x) => binaryScalar(op, type.element, x, o.args[0] as Scalar));
      return;
    }
    case 'load':
    case 'store': {
      const [offset, stride] = o.args as [number, number];
      const memory = o.memory!;
      const length = lengthOf(memory);
      const scalar = { kind: 'scalar', scalar: type.element } as const;
      const next = [...elements];
      for (let r = 0; r < type.rows; r++) {
        for (let c = 0; c < type.columns; c++) {
          const i = offset + (s.layout === 'rowMajor' ? r * stride + c : c * stride + r);
          if (!(i >= 0 && i < length)) {
            o.fail(`joint matrix ${s.fn}: element ${i} is out of bounds (length ${length})`);
          }
          const place = child(memory, i, scalar);
          if (s.fn === 'load') next[r * type.columns + c] = read(place) as Scalar;
          else write(place, elements[r * type.columns + c]!);
        }
      }
      if (s.fn === 'load') cell.value = next;
      return;
    }
    case 'mad': {
      const a = o.cell(s.a.name).value as Scalar[];
      const b = o.cell(s.b.name).value as Scalar[];
      const c = o.cell(s.c.name).value as Scalar[];
      const [m, k, n] = [s.a.type.rows, s.a.type.columns, s.b.type.columns];
      const from: ScalarName = s.a.type.element;
      const to: ScalarName = s.c.type.element;
      const widen = (x: Scalar) => (from === to ? x : convertScalar(from, to, x));
      const d = [...c];
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          let x = c[i * n + j]!;
          for (let q = 0; q < k; q++) {
            const p = binaryScalar('*', to, widen(a[i * k + q]!), widen(b[q * n + j]!));
            x = binaryScalar('+', to, x, p);
          }
          d[i * n + j] = x;
        }
      }
      cell.value = d;
      return;
    }
  }
}
