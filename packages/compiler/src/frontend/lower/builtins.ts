/**
 * WGSL built-in functions reachable from device code, by the name the DSL exports them under,
 * with their WGSL typing. `Math.*` members map onto the same table (see MATH_FUNCTIONS).
 */
import type { DataType } from '@syclts/dsl';
import { sameType } from '@syclts/dsl';
import {
  BOOL,
  F32,
  isFloat,
  isInteger,
  isNumeric,
  matrixType,
  scalarOf,
  typeName,
  withScalar,
} from '../resolver/types.js';
import type { Typing } from './operators.js';

const ok = (type: DataType): Typing => ({ ok: true, type });
const no = (why: string): Typing => ({ ok: false, why });

export interface BuiltinSpec {
  /** The WGSL function printed by the emitter. */
  readonly wgsl: string;
  readonly arity: number;
  /** Arguments of the generic type T: abstract literals among them take T's scalar. */
  readonly unified: readonly number[];
  /** T's scalar when every unified argument is an abstract literal. */
  readonly defaultScalar: 'f32' | 'i32';
  readonly type: (args: readonly DataType[]) => Typing;
}

type Check = (t: DataType) => boolean;
const floatish: Check = (t) => (t.kind === 'scalar' || t.kind === 'vector') && isFloat(scalarOf(t));
const numeric: Check = (t) =>
  (t.kind === 'scalar' || t.kind === 'vector') && isNumeric(scalarOf(t));
const integer: Check = (t) =>
  (t.kind === 'scalar' || t.kind === 'vector') && isInteger(scalarOf(t));
const signed: Check = (t) => numeric(t) && scalarOf(t) !== 'u32';
const floatVector: Check = (t) => t.kind === 'vector' && isFloat(t.component);

function sameAll(
  what: string,
  check: Check,
  result: (t: DataType) => DataType = (t) => t,
): (args: readonly DataType[]) => Typing {
  return (args) => {
    const first = args[0];
    if (!first || !check(first)) {
      return no(`${what}, not ${first ? typeName(first) : 'nothing'}`);
    }
    for (const a of args) {
      if (!sameType(a, first)) {
        return no(`all arguments must have one type (${args.map(typeName).join(', ')})`);
      }
    }
    return ok(result(first));
  };
}

const FLOAT = 'takes f32 or f16 scalars or vectors';
const unaryFloat = (wgsl: string): BuiltinSpec => ({
  wgsl,
  arity: 1,
  unified: [0],
  defaultScalar: 'f32',
  type: sameAll(`${wgsl} ${FLOAT}`, floatish),
});
const sameFloat = (wgsl: string, arity: number): BuiltinSpec => ({
  wgsl,
  arity,
  unified: Array.from({ length: arity }, (_, i) => i),
  defaultScalar: 'f32',
  type: sameAll(`${wgsl} ${FLOAT}`, floatish),
});
const sameNumeric = (wgsl: string, arity: number, check: Check = numeric): BuiltinSpec => ({
  wgsl,
  arity,
  unified: Array.from({ length: arity }, (_, i) => i),
  defaultScalar: 'i32',
  type: sameAll(`${wgsl} takes numeric scalars or vectors`, check),
});
const unaryInteger = (wgsl: string): BuiltinSpec => ({
  wgsl,
  arity: 1,
  unified: [0],
  defaultScalar: 'i32',
  type: sameAll(`${wgsl} takes i32 or u32 scalars or vectors`, integer),
});

const FLOAT_UNARY = [
  'sqrt',
  'inverseSqrt',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'sinh',
  'cosh',
  'tanh',
  'asinh',
  'acosh',
  'atanh',
  'exp',
  'exp2',
  'log',
  'log2',
  'floor',
  'ceil',
  'round',
  'trunc',
  'fract',
  'saturate',
  'degrees',
  'radians',
];
const INTEGER_UNARY = [
  'countOneBits',
  'reverseBits',
  'countLeadingZeros',
  'countTrailingZeros',
  'firstLeadingBit',
  'firstTrailingBit',
];

export const BUILTINS: ReadonlyMap<string, BuiltinSpec> = new Map<string, BuiltinSpec>([
  ...FLOAT_UNARY.map((n): [string, BuiltinSpec] => [n, unaryFloat(n)]),
  ...INTEGER_UNARY.map((n): [string, BuiltinSpec] => [n, unaryInteger(n)]),
  ['pow', sameFloat('pow', 2)],
  ['atan2', sameFloat('atan2', 2)],
  ['step', sameFloat('step', 2)],
  ['fma', sameFloat('fma', 3)],
  ['mix', sameFloat('mix', 3)],
  ['smoothstep', sameFloat('smoothstep', 3)],
  ['abs', sameNumeric('abs', 1)],
  ['sign', sameNumeric('sign', 1, signed)],
  ['min', sameNumeric('min', 2)],
  ['max', sameNumeric('max', 2)],
  ['clamp', sameNumeric('clamp', 3)],
  [
    'length',
    {
      wgsl: 'length',
      arity: 1,
      unified: [0],
      defaultScalar: 'f32',
      type: sameAll(`length ${FLOAT}`, floatish, (t) => withScalarOnly(t)),
    },
  ],
  [
    'distance',
    {
      wgsl: 'distance',
      arity: 2,
      unified: [0, 1],
      defaultScalar: 'f32',
      type: sameAll(`distance ${FLOAT}`, floatish, (t) => withScalarOnly(t)),
    },
  ],
  [
    'normalize',
    {
      wgsl: 'normalize',
      arity: 1,
      unified: [0],
      defaultScalar: 'f32',
      type: sameAll('normalize takes a float vector', floatVector),
    },
  ],
  [
    'dot',
    {
      wgsl: 'dot',
      arity: 2,
      unified: [0, 1],
      defaultScalar: 'f32',
      type: sameAll(
        'dot takes two numeric vectors',
        (t) => t.kind === 'vector' && isNumeric(t.component),
        withScalarOnly,
      ),
    },
  ],
  [
    'cross',
    {
      wgsl: 'cross',
      arity: 2,
      unified: [0, 1],
      defaultScalar: 'f32',
      type: sameAll(
        'cross takes two vec3 of floats',
        (t) => t.kind === 'vector' && t.size === 3 && isFloat(t.component),
      ),
    },
  ],
  [
    'select',
    {
      wgsl: 'select',
      arity: 3,
      unified: [0, 1],
      defaultScalar: 'i32',
      type: ([f, t, c]) => {
        if (!f || !t || !c) return no('select takes (falseValue, trueValue, condition)');
        if (!sameType(f, t)) {
          return no(`select's values must have one type, not ${typeName(f)} and ${typeName(t)}`);
        }
        if (f.kind !== 'scalar' && f.kind !== 'vector') {
          return no(
            `select chooses between scalars or vectors, not ${typeName(f)}: write c ? a : b`,
          );
        }
        const boolOk =
          (c.kind === 'scalar' && c.scalar === 'bool') ||
          (c.kind === 'vector' && sameType(c, withScalar(f, 'bool')));
        return boolOk
          ? ok(f)
          : no(
              `select's condition must be bool or a bool vector of the values' size, not ${typeName(c)}`,
            );
      },
    },
  ],
  ...(['all', 'any'] as const).map((n): [string, BuiltinSpec] => [
    n,
    {
      wgsl: n,
      arity: 1,
      unified: [],
      defaultScalar: 'i32',
      type: ([v]) =>
        v && (v.kind === 'vector' || v.kind === 'scalar') && scalarOf(v) === 'bool'
          ? ok(BOOL)
          : no(`${n} takes a bool vector`),
    },
  ]),
  [
    'transpose',
    {
      wgsl: 'transpose',
      arity: 1,
      unified: [],
      defaultScalar: 'f32',
      type: ([m]) =>
        m?.kind === 'matrix' ? ok(matrixType(m.rows, m.columns)) : no('transpose takes a matrix'),
    },
  ],
  [
    'determinant',
    {
      wgsl: 'determinant',
      arity: 1,
      unified: [],
      defaultScalar: 'f32',
      type: ([m]) =>
        m?.kind === 'matrix' && m.rows === m.columns
          ? ok(F32)
          : no('determinant takes a square matrix'),
    },
  ],
  ...(['f32', 'i32', 'u32'] as const).map((s): [string, BuiltinSpec] => [
    `bitcast${s[0]?.toUpperCase()}${s.slice(1)}`,
    {
      wgsl: `bitcast<${s}>`,
      arity: 1,
      unified: [],
      defaultScalar: 'i32',
      type: ([v]) =>
        v?.kind === 'scalar' && v.scalar !== 'bool' && v.scalar !== 'f16'
          ? ok({ kind: 'scalar', scalar: s })
          : no(`bitcast${s} takes a 32-bit scalar`),
    },
  ]),
]);

function withScalarOnly(t: DataType): DataType {
  const s = scalarOf(t);
  return s ? { kind: 'scalar', scalar: s } : t;
}

/** `Math.x` → the DSL builtin it means. Others (round, min/max of many, fround, imul) are lowered specially. */
export const MATH_FUNCTIONS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    abs: 'abs',
    sqrt: 'sqrt',
    floor: 'floor',
    ceil: 'ceil',
    trunc: 'trunc',
    sign: 'sign',
    exp: 'exp',
    log: 'log',
    log2: 'log2',
    pow: 'pow',
    sin: 'sin',
    cos: 'cos',
    tan: 'tan',
    asin: 'asin',
    acos: 'acos',
    atan: 'atan',
    atan2: 'atan2',
    sinh: 'sinh',
    cosh: 'cosh',
    tanh: 'tanh',
    asinh: 'asinh',
    acosh: 'acosh',
    atanh: 'atanh',
  }),
);

/** DSL functions that spell vector arithmetic, which TypeScript's operators cannot. */
export const VECTOR_OPERATORS: ReadonlyMap<
  string,
  '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>='
> = new Map(
  Object.entries({
    add: '+',
    sub: '-',
    mul: '*',
    div: '/',
    rem: '%',
    eq: '==',
    ne: '!=',
    lt: '<',
    le: '<=',
    gt: '>',
    ge: '>=',
  } as const),
);

export const ATOMIC_FUNCTIONS = new Set([
  'atomicLoad',
  'atomicStore',
  'atomicAdd',
  'atomicSub',
  'atomicMax',
  'atomicMin',
  'atomicAnd',
  'atomicOr',
  'atomicXor',
  'atomicExchange',
  'atomicCompareExchangeWeak',
]);
