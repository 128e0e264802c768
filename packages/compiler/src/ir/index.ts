export type * from './device-code.js';
export type * from './device-object.js';
export { DEVICE_OBJECT_VERSION } from './device-object.js';
export type * from './span.js';
export type { IrProblem } from './validate.js';
