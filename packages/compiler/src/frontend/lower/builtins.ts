/**
 * DSL functions that are not built-ins of the table (builtins/overloads.ts): vector operators
 * and atomics.
 */
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
