/**
 * TypeScript typings of the built-in table's overload notation (table.ts), computed by the type
 * checker: each overload string becomes one function type, and an entry's overloads their
 * intersection (TypeScript's overloads). A vector overload is generic over the vector it takes,
 * so `sqrt(v)` of a `vec3f` is a `vec3f`.
 */
import type { Mat, ScalarValue, Vec } from '../device/values.js';
import type { MatrixDim, ScalarName, VectorSize } from '../types/data-type.js';
import type { BUILTIN_TABLE, BuiltinName } from './table.js';

export type Table = typeof BUILTIN_TABLE;

/** `'f32|f16'` → `'f32' | 'f16'`. */
type SetOf<S> = S extends `${infer A}|${infer B}` ? A | SetOf<B> : S;
type Scalars<E, K extends 'T' | 'S'> = E extends { readonly [k in K]: infer S }
  ? Extract<SetOf<S>, ScalarName>
  : never;

type Params<P extends string> = P extends `${infer A}, ${infer B}` ? [A, ...Params<B>] : [P];

/** The bool vector of V's size (select's condition). */
export type BoolVecOf<V> = V extends Vec<ScalarName, infer N> ? Vec<'bool', N> : boolean;
type Widen<V> = V extends number ? number : V extends boolean ? boolean : V;

/** The overload's own value type: the token that makes it generic, and its bound. */
type Generic<Ps extends string[], T extends ScalarName> = 'vecN<T>' extends Ps[number]
  ? ['vecN<T>', Vec<T>]
  : 'vec2<T>' extends Ps[number]
    ? ['vec2<T>', Vec<T, 2>]
    : 'vec3<T>' extends Ps[number]
      ? ['vec3<T>', Vec<T, 3>]
      : 'vec4<T>' extends Ps[number]
        ? ['vec4<T>', Vec<T, 4>]
        : 'vecN<bool>' extends Ps[number]
          ? ['vecN<bool>', Vec<'bool'>]
          : 'T' extends Ps[number]
            ? ['T', ScalarValue<T>]
            : [never, unknown];

/** A parameter or result token, with V the overload's generic value of token G. */
type Token<K, G, V, T extends ScalarName, Result extends boolean> = K extends G
  ? Result extends true
    ? Widen<V>
    : V
  : K extends 'T'
    ? ScalarValue<T>
    : K extends 'vecN<bool>'
      ? BoolVecOf<V>
      : K extends 'bool'
        ? boolean
        : K extends `vec${infer N extends VectorSize}<${infer S extends ScalarName}>`
          ? Vec<S, N>
          : number;

type Args<Ps, G, V, T extends ScalarName> = {
  [I in keyof Ps]: Token<Ps[I], G, V, T, false>;
};

type Overload<O, E> = O extends `(${infer P}) -> ${infer R}`
  ? P extends 'matCxR<f32>'
    ? <C extends MatrixDim, R extends MatrixDim>(m: Mat<C, R>) => Mat<R, C>
    : P extends 'matNxN<f32>'
      ? <N extends MatrixDim>(m: Mat<N, N>) => number
      : GenericOverload<Params<P>, R, Generic<Params<P>, Scalars<E, 'T'>>, Scalars<E, 'T'>>
  : never;

type GenericOverload<
  Ps extends string[],
  R extends string,
  G extends [string, unknown],
  T extends ScalarName,
> = <V extends G[1]>(...args: Args<Ps, G[0], V, T>) => Token<R, G[0], V, T, true>;

type Each<Os, E> = Os extends readonly [infer O, ...infer Rest]
  ? Overload<O, E> & Each<Rest, E>
  : unknown;

/** The function type of a table entry: one TypeScript overload per table overload. */
export type Overloads<E> = E extends { readonly overloads: infer Os } ? Each<Os, E> : never;

/** The names of the entries the DSL exports (others are reached through `Math` only). */
export type DslBuiltinName = {
  [K in BuiltinName]: Table[K] extends { readonly dsl: false } ? never : K;
}[BuiltinName];
