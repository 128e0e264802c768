export { requestAdapter } from '#platform';
export { type Errc, errc, SyclError } from './errors.js';
export type { AdapterKind, AdapterRequest, ChosenAdapter } from './platform/adapter-request.js';
