/** The binary interface between the build and the run: memory layout, value encoding, uniforms. */
export * from './launch.js';
export * from './layout.js';
export * from './ranges.js';
export * from './scalars.js';
export * from './values.js';
