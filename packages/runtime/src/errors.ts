/** The error type is shared with the DSL, whose host objects raise it too. */
export { type Errc, errc, SyclError } from '@syclts/dsl';
