export { type BuildResult, type BuildSource, build } from './build.js';
export {
  codeFrame,
  type Diagnostic,
  DiagnosticError,
  type FormatOptions,
  formatDiagnostic,
  lineColumn,
} from './diagnostics/diagnostic.js';
export { type EmitOptions, emitProgram } from './emit/index.js';
export { type LayoutEntry, type PropertySets, propertySets } from './emit/property-sets.js';
export { IrInvariantError } from './emit/transforms/index.js';
export { type FooterOptions, integrationFooter } from './footer/index.js';
export {
  type CompileOptions,
  type CompileResult,
  compileModule,
  type ImportLoader,
} from './frontend/index.js';
export { ModuleLoader, type ParsedModule } from './frontend/loader/module-loader.js';
export {
  INTERPRETED_BUILTINS,
  InterpretError,
  type InterpretLaunch,
  type InterpretOptions,
  type InterpretResult,
  interpretKernel,
  type LogLine,
} from './interpret/index.js';
export * from './ir/index.js';
export {
  type LinkInput,
  type LinkOptions,
  type LinkResult,
  link,
  type SpecConstantsOption,
  type SplitMode,
} from './link/index.js';
export type * from './link/linked-image.js';
