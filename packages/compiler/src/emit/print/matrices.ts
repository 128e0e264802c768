/**
 * Joint matrices as WGSL, in the lowering the image's group functions take (collectives.ts):
 *
 * - `subgroups`: WGSL's subgroup-matrix built-ins (`chromium_experimental_subgroup_matrix`): a
 *   matrix is a `subgroup_matrix_left/right/result<T, columns, rows>` local and each operation
 *   one built-in call. The runtime chooses this text only on a device that offers the feature
 *   and every shape the image uses.
 * - `workgroup`: plain WGSL for every other device. Each item holds the whole matrix, row by row,
 *   in a function-scope `array<T, rows * columns>`: the items of a sub-group load the same
 *   elements (every operand is the same across the sub-group) and so hold the same values, a
 *   product is the textbook triple loop (f16 products widened to an f32 accumulator exactly,
 *   otherwise WGSL's own arithmetic in the element type), and a store writes the same value
 *   from each item. Each operation is a helper printed once per module, shape and memory; one
 *   on an element of an array of arrays takes that element's index first.
 */
import type { CollectiveLowering, MatrixLayout, SymbolicId } from '@syclts/dsl';
import type { JointMatrixStmt, JointMatrixType } from '../../ir/device-code.js';
import { HELPER_PREFIX, type Namer } from '../../link/wgsl-names.js';
import type { WgslTypes } from './types.js';

const NATIVE_TYPES = {
  a: 'subgroup_matrix_left',
  b: 'subgroup_matrix_right',
  accumulator: 'subgroup_matrix_result',
} as const;
const NATIVE_LAYOUTS: Readonly<Record<MatrixLayout, string>> = {
  rowMajor: 'row_major',
  colMajor: 'col_major',
};
const NATIVE_SCALAR = { '+': 'Add', '-': 'Subtract', '*': 'Multiply' } as const;

/** A load's or store's memory as WGSL: the variable, and the index of its element or null. */
export interface MatrixMemoryText {
  readonly root: string;
  readonly index: string | null;
}

const place = (memory: MatrixMemoryText) =>
  memory.index === null ? memory.root : `${memory.root}[${memory.index}]`;
const region = (memory: MatrixMemoryText) => (memory.index === null ? [] : [memory.index]);

export class MatrixPrinter {
  readonly #helpers = new Map<string, { readonly name: string; readonly text: string }>();
  /** Whether any matrix was printed in the `subgroups` lowering (the module enables the extension). */
  usesNative = false;

  constructor(
    readonly lowering: CollectiveLowering,
    private readonly namer: Namer,
    private readonly types: WgslTypes,
  ) {}

  /** The helper functions used so far (workgroup lowering). */
  declarations(): string[] {
    return [...this.#helpers.values()].map((h) => h.text);
  }

  /**
   * A statement, its parts printed: `local` names matrices, `memory` is the WGSL variable a load
   * or store reads or writes (and the index of its element, for an array of arrays), `args` the
   * printed value, or offset and stride.
   */
  statement(
    s: JointMatrixStmt<SymbolicId>,
    local: (name: string) => string,
    memory: MatrixMemoryText | null,
    args: readonly string[],
  ): string {
    const m = local(s.matrix.name);
    if (this.lowering === 'subgroups') {
      this.usesNative = true;
      const type = this.#nativeType(s.matrix.type);
      switch (s.fn) {
        case 'declare':
          return `var ${m} = ${type}()`;
        case 'fill':
          return `${m} = ${type}(${args[0]!})`;
        case 'load':
          return `${m} = subgroupMatrixLoad<${type}, ${NATIVE_LAYOUTS[s.layout]}>(&${place(memory!)}, ${args[0]!}, ${args[1]!})`;
        case 'store':
          return `subgroupMatrixStore<${NATIVE_LAYOUTS[s.layout]}>(&${place(memory!)}, ${args[0]!}, ${m}, ${args[1]!})`;
        case 'mad':
          return `${m} = subgroupMatrixMultiplyAccumulate(${local(s.a.name)}, ${local(s.b.name)}, ${local(s.c.name)})`;
        case 'apply':
          return `${m} = subgroupMatrixScalar${NATIVE_SCALAR[s.operator]}(${m}, ${args[0]!})`;
      }
    }
    switch (s.fn) {
      case 'declare':
        return `var ${m} = ${this.#arrayType(s.matrix.type)}()`;
      case 'fill':
        return `${m} = ${this.#fill(s.matrix.type)}(${args[0]!})`;
      case 'load':
        return `${m} = ${this.#load(s.matrix.type, memory!, s.layout)}(${[...region(memory!), ...args].join(', ')})`;
      case 'store':
        return `${this.#store(s.matrix.type, memory!, s.layout)}(${[m, ...region(memory!), ...args].join(', ')})`;
      case 'mad':
        return `${m} = ${this.#mad(s.a.type, s.b.type, s.c.type)}(${local(s.a.name)}, ${local(s.b.name)}, ${local(s.c.name)})`;
      case 'apply':
        return `${m} = ${this.#apply(s.matrix.type, s.operator)}(${m}, ${args[0]!})`;
    }
  }

  #nativeType(t: JointMatrixType): string {
    return `${NATIVE_TYPES[t.use]}<${this.types.scalar(t.element)}, ${t.columns}, ${t.rows}>`;
  }

  #arrayType(t: JointMatrixType): string {
    return `array<${this.types.scalar(t.element)}, ${t.rows * t.columns}>`;
  }

  #helper(key: string, base: string, text: (name: string) => string[]): string {
    let helper = this.#helpers.get(key);
    if (!helper) {
      const name = this.namer.call(`${HELPER_PREFIX}${base}`);
      helper = { name, text: text(name).join('\n') };
      this.#helpers.set(key, helper);
    }
    return helper.name;
  }

  #fill(t: JointMatrixType): string {
    const array = this.#arrayType(t);
    return this.#helper(`fill|${array}`, `jm_fill_${t.element}_${t.rows * t.columns}`, (name) => [
      `fn ${name}(v: ${t.element}) -> ${array} {`,
      `  var m: ${array};`,
      `  for (var i = 0u; i < ${t.rows * t.columns}u; i++) { m[i] = v; }`,
      '  return m;',
      '}',
    ]);
  }

  #apply(t: JointMatrixType, operator: '+' | '-' | '*'): string {
    const array = this.#arrayType(t);
    const op = NATIVE_SCALAR[operator].toLowerCase();
    return this.#helper(
      `apply|${operator}|${array}`,
      `jm_${op}_${t.element}_${t.rows * t.columns}`,
      (name) => [
        `fn ${name}(m: ${array}, v: ${t.element}) -> ${array} {`,
        '  var r = m;',
        `  for (var i = 0u; i < ${t.rows * t.columns}u; i++) { r[i] = m[i] ${operator} v; }`,
        '  return r;',
        '}',
      ],
    );
  }

  /**
   * Element (r, c) of memory: row-major `o + r * s + c`, column-major `o + c * s + r`, of the
   * helper's element `i` for an array of arrays.
   */
  #at(memory: MatrixMemoryText, layout: MatrixLayout): string {
    const array = memory.index === null ? memory.root : `${memory.root}[i]`;
    return layout === 'rowMajor' ? `${array}[o + r * s + c]` : `${array}[o + c * s + r]`;
  }

  /** The key of a transfer helper and its leading parameters. */
  #transfer(
    fn: 'load' | 'store',
    t: JointMatrixType,
    memory: MatrixMemoryText,
    layout: MatrixLayout,
  ) {
    const nested = memory.index !== null;
    return {
      key: `${fn}|${memory.root}|${nested}|${layout}|${t.rows}|${t.columns}`,
      base: `jm_${fn}_${memory.root}_${t.rows}x${t.columns}`,
      region: nested ? 'i: u32, ' : '',
    };
  }

  #load(t: JointMatrixType, memory: MatrixMemoryText, layout: MatrixLayout): string {
    const array = this.#arrayType(t);
    const { key, base, region } = this.#transfer('load', t, memory, layout);
    return this.#helper(key, base, (name) => [
      `fn ${name}(${region}o: u32, s: u32) -> ${array} {`,
      `  var m: ${array};`,
      `  for (var r = 0u; r < ${t.rows}u; r++) {`,
      `    for (var c = 0u; c < ${t.columns}u; c++) { m[r * ${t.columns}u + c] = ${this.#at(memory, layout)}; }`,
      '  }',
      '  return m;',
      '}',
    ]);
  }

  #store(t: JointMatrixType, memory: MatrixMemoryText, layout: MatrixLayout): string {
    const array = this.#arrayType(t);
    const { key, base, region } = this.#transfer('store', t, memory, layout);
    return this.#helper(key, base, (name) => [
      `fn ${name}(m: ${array}, ${region}o: u32, s: u32) {`,
      `  for (var r = 0u; r < ${t.rows}u; r++) {`,
      `    for (var c = 0u; c < ${t.columns}u; c++) { ${this.#at(memory, layout)} = m[r * ${t.columns}u + c]; }`,
      '  }',
      '}',
    ]);
  }

  /** `a × b + c`, each product in the accumulator's type (exact for f16 into f32). */
  #mad(a: JointMatrixType, b: JointMatrixType, c: JointMatrixType): string {
    const [M, K, N] = [a.rows, a.columns, b.columns];
    const widen = (x: string) => (a.element === c.element ? x : `${c.element}(${x})`);
    return this.#helper(
      `mad|${a.element}|${c.element}|${M}|${K}|${N}`,
      `jm_mad_${a.element}_${c.element}_${M}x${K}x${N}`,
      (name) => [
        `fn ${name}(a: ${this.#arrayType(a)}, b: ${this.#arrayType(b)}, c: ${this.#arrayType(c)}) -> ${this.#arrayType(c)} {`,
        '  var d = c;',
        `  for (var i = 0u; i < ${M}u; i++) {`,
        `    for (var j = 0u; j < ${N}u; j++) {`,
        `      var x = c[i * ${N}u + j];`,
        `      for (var k = 0u; k < ${K}u; k++) { x += ${widen(`a[i * ${K}u + k]`)} * ${widen(`b[k * ${N}u + j]`)}; }`,
        `      d[i * ${N}u + j] = x;`,
        '    }',
        '  }',
        '  return d;',
        '}',
      ],
    );
  }
}
