import type { CallExpression } from 'oxc-parser';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import * as msg from '../diagnostics/frontend-messages.js';
import {
  DEVICE_OBJECT_VERSION,
  type DeviceGlobalDecl,
  type DeviceObject,
  type FunctionDecl,
  type KernelDecl,
  type SpecConstantDecl,
} from '../ir/device-object.js';
import { validateDeviceObject } from '../ir/validate.js';
import { unwrap, walk } from './ast.js';
import { ModuleLoader } from './loader/module-loader.js';
import { DeclarationBuilder, reportRecursion } from './lower/declarations.js';
import { MAX_PARSE_NESTING } from './nesting-scan.js';
import { Reporter } from './report.js';
import { DECLARATIONS } from './resolver/dsl-names.js';
import { type ImportLoader, scanTopLevel } from './resolver/module-scope.js';
import { Resolver, ResolverCache } from './resolver/resolver.js';
import { SourceText } from './source-text.js';

export type { ImportLoader };

export interface CompileOptions {
  /** Root-relative module path with '/' separators: it prefixes every symbolic ID. */
  readonly module: string;
  /**
   * Reads an imported module, so device code can use declarations (types, specialization IDs,
   * device globals, device functions) of other `.sycl.ts` modules. Without it, such uses are
   * reported.
   */
  readonly loadImport?: ImportLoader;
  /**
   * Shares parses between the compilations of one build: each module is parsed once however
   * many modules import it. Default: a loader of this compilation's own.
   */
  readonly loader?: ModuleLoader;
}

export interface CompileResult {
  /** null when an error was reported. */
  readonly object: DeviceObject | null;
  readonly diagnostics: readonly Diagnostic[];
}

/** Compiles one `.sycl.ts` module to its device object. Never throws on any input. */
export function compileModule(source: string, options: CompileOptions): CompileResult {
  const reporter = new Reporter(new SourceText(source), options.module);
  const lowering: Lowering = { declaration: null };
  try {
    const object = compile(source, options, reporter, lowering);
    if (object && reporter.errorCount === 0) {
      for (const p of validateDeviceObject(object)) {
        reporter.error(p.span, msg.invalidIr(p.message));
      }
    }
    return { object: reporter.errorCount === 0 ? object : null, diagnostics: reporter.diagnostics };
  } catch (error) {
    if (error instanceof RangeError) {
      reporter.error(lowering.declaration, msg.declarationTooDeep());
      return { object: null, diagnostics: reporter.diagnostics };
    }
    reporter.error(null, msg.internalError(error instanceof Error ? error.message : String(error)));
    return { object: null, diagnostics: reporter.diagnostics };
  }
}

/** The declaration being lowered, so running out of stack is reported at it. */
interface Lowering {
  declaration: { readonly start: number; readonly end: number } | null;
}

function compile(
  source: string,
  options: CompileOptions,
  reporter: Reporter,
  lowering: Lowering,
): DeviceObject | null {
  const loader = options.loader ?? new ModuleLoader();
  // The loader scans the text before it parses it (once per text: the scan's result is kept
  // with the parse).
  const parsed = loader.parse(options.module, source, false);
  const deep = parsed.nestingOverflow;
  if (deep !== null) {
    reporter.error({ start: deep, end: deep + 1 }, msg.sourceTooDeep(MAX_PARSE_NESTING));
    return null;
  }
  if (!parsed.program) {
    for (const e of parsed.errors) {
      const label = e.labels[0];
      reporter.error(
        label ? { start: label.start, end: label.end } : null,
        msg.syntaxError(e.message, e.helpMessage ?? undefined),
      );
    }
    return null;
  }
  const top = scanTopLevel(parsed.program, reporter);
  const resolver = new Resolver(
    top,
    reporter,
    options.module,
    new ResolverCache(loader, options.loadImport),
  );
  const builder = new DeclarationBuilder(resolver);
  const specConstants: SpecConstantDecl[] = [];
  const deviceGlobals: DeviceGlobalDecl[] = [];
  const kernels: KernelDecl[] = [];
  const functions: FunctionDecl[] = [];
  const declarationCalls = new Set<unknown>();
  for (const { name, declarator } of top.consts) {
    const init = declarator.init ? unwrap(declarator.init) : null;
    if (init?.type !== 'CallExpression') continue;
    const callee = resolver.dslName(init.callee);
    if (!callee || !DECLARATIONS.has(callee)) continue;
    declarationCalls.add(init);
    lowering.declaration = declarator;
    switch (callee) {
      case 'specializationId': {
        const d = builder.specConstant(name, declarator, init);
        if (d) specConstants.push(d);
        break;
      }
      case 'deviceGlobal': {
        const d = builder.deviceGlobal(name, declarator, init);
        if (d) deviceGlobals.push(d);
        break;
      }
      case 'kernel': {
        const d = builder.kernel(name, declarator, init);
        if (d) kernels.push(d);
        break;
      }
      default: {
        const d = builder.deviceFunction(name, declarator, init);
        if (d) functions.push(d);
      }
    }
  }
  lowering.declaration = null;
  reportRecursion(builder.callGraph, resolver);
  reportMisplacedDeclarations(parsed.program, declarationCalls, resolver);
  return {
    version: DEVICE_OBJECT_VERSION,
    module: options.module,
    source,
    imports: top.imports,
    exports: top.exports,
    specConstants,
    deviceGlobals,
    kernels,
    functions,
  };
}

/** Declarations must be the initializer of a top-level const: anywhere else is an error. */
function reportMisplacedDeclarations(
  root: unknown,
  allowed: ReadonlySet<unknown>,
  resolver: Resolver,
): void {
  walk(root, (node) => {
    if (node.type !== 'CallExpression' || allowed.has(node)) return;
    const call = node as CallExpression;
    const callee = resolver.dslName(call.callee);
    if (callee && DECLARATIONS.has(callee)) {
      resolver.reporter.error(call, msg.notTopLevel(callee));
    }
  });
}
