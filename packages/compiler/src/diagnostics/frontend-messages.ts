/**
 * Every message of the front end (SYCL1xxx), one function per kind of message, in the shape of
 * Rollup's `logs.ts`: each takes the facts of the problem (names, types, values, counts) and
 * returns the code and the words, so the wording lives here and nowhere else. Grouped by code,
 * in code order; a message whose code depends on its facts (an import that cannot be read
 * is SYCL1008) sits with its usual code. The reasons at the end are the clauses several
 * messages end with (why a name means nothing device code can use).
 */
import { type DataType, KERNEL_LIMITS, type ScalarName, typeName } from '@syclts/dsl';
import type { Builtin } from '../builtins/overloads.js';
import { type ConstValue, describeConst } from '../frontend/resolver/constants.js';
import { isFloat, isInteger, scalarOf, withScalar } from '../frontend/resolver/types.js';
import { type Message, message } from './codes.js';

const REPORT_IT = 'please report this with the module that triggered it';
const DSL_TYPE_HINT =
  'use a type from @syclts/dsl (f32, u32, vec3f, array(f32, 4), struct({...}), ...) or a top-level const alias of one';
const FIT_HINT = 'give a value of the declared type, or change the type';
const ARGS_HINT = "write args: { out: accessor(f32, 'write'), n: u32 }";
const FUNCTION_SPEC_HINT =
  'write deviceFunction({ args: [f32, f32], returns: f32 }, (a, b) => ...)';
const NESTING_HINT = 'split it with intermediate consts, or move part of it into a device function';

/** How each declaration is called, for the messages about its arguments. */
const USAGE = {
  specializationId: 'specializationId(type, default?)',
  deviceGlobal: 'deviceGlobal(type, { hostAccess, deviceImageScope, ... }?, initialValue?)',
  kernel: 'kernel({ range: 1, args: { ... } }, (item, kh, args) => { ... })',
  deviceFunction: 'deviceFunction({ args: [f32], returns: f32 }, (x) => ...)',
} as const;

export type Declaration = keyof typeof USAGE;

/** The hint for a misspelt name, given the nearest known one (suggest.ts), if any. */
function didYouMean(nearest: string | undefined): string | undefined {
  return nearest === undefined ? undefined : `did you mean \`${nearest}\`?`;
}

/** The DSL's constructor of a vector type: `vec3f`, `vec2u`, `vec4b`. */
function vectorConstructor(size: number, scalar: ScalarName): string {
  const letter = { f32: 'f', i32: 'i', u32: 'u', f16: 'h', bool: 'b' }[scalar];
  return `vec${size}${letter}`;
}

/** How to convert `text` (of type `from`) to `to`, when an explicit conversion does it. */
function conversionHint(from: DataType, to: DataType, text: string): string | undefined {
  const fs = scalarOf(from);
  const ts = scalarOf(to);
  if (from.kind === 'scalar' && to.kind === 'scalar' && ts === 'bool' && fs !== 'bool') {
    return `compare explicitly: ${text} !== 0`;
  }
  if (from.kind === 'scalar' && to.kind === 'scalar' && fs !== ts && ts !== null) {
    return `convert explicitly: ${ts}(${text})`;
  }
  if (from.kind === 'vector' && to.kind === 'vector' && from.size === to.size && ts !== null) {
    return `convert explicitly: ${vectorConstructor(to.size, ts)}(${text})`;
  }
  return undefined;
}

// SYCL1000: internal compiler error

export function invalidIr(problem: string): Message {
  return message('SYCL1000', `internal compiler error: invalid IR: ${problem}`, REPORT_IT);
}

export function internalError(error: string): Message {
  return message('SYCL1000', `internal compiler error: ${error}`, REPORT_IT);
}

// SYCL1001: syntax error

/** The parser's own words. */
export function syntaxError(text: string, help: string | undefined): Message {
  return message('SYCL1001', text, help);
}

// SYCL1002: declaration not at the top level

export function notTopLevel(declaration: string): Message {
  return message(
    'SYCL1002',
    `${declaration}(...) must initialise a top-level const`,
    `declare it at module top level: export const name = ${declaration}(...)`,
  );
}

// SYCL1003: not a DSL type

/** `reason`: why the name is not a type, when it names something that cannot be used. */
export function notAType(text: string, reason?: string): Message {
  return message(
    'SYCL1003',
    `\`${text}\` is not a DSL type${reason === undefined ? '' : `: ${reason}`}`,
    DSL_TYPE_HINT,
  );
}

export function dslExportNotAType(name: string): Message {
  return message('SYCL1003', `\`${name}\` from @syclts/dsl is not a type`, DSL_TYPE_HINT);
}

/** `kind`: what the name declares instead (a kernel, a specConstant, ...). */
export function declarationNotAType(text: string, kind: string): Message {
  return message('SYCL1003', `\`${text}\` is a ${kind}, not a type`, DSL_TYPE_HINT);
}

const TYPE_ARGUMENTS = {
  vectorSize: 'the size of a vector',
  columns: 'the number of columns',
  rows: 'the number of rows',
  arrayLength: 'the length of an array',
} as const;

export type TypeArgument = keyof typeof TYPE_ARGUMENTS;

export function typeArgumentNotInteger(argument: TypeArgument): Message {
  return message(
    'SYCL1003',
    `${TYPE_ARGUMENTS[argument]} must be an integer constant`,
    'write a literal or a top-level const',
  );
}

export function vectorComponentNotScalar(): Message {
  return message(
    'SYCL1003',
    'vector components must be scalars (bool, i32, u32, f32, f16)',
    DSL_TYPE_HINT,
  );
}

export function vectorSize(size: number): Message {
  return message('SYCL1003', `vectors have 2, 3 or 4 components, not ${size}`, DSL_TYPE_HINT);
}

export function matrixSize(columns: number, rows: number): Message {
  return message('SYCL1003', `matrices are 2x2 to 4x4, not ${columns}x${rows}`, DSL_TYPE_HINT);
}

export function emptyArrayType(length: number): Message {
  return message('SYCL1003', `an array needs at least one element, not ${length}`, DSL_TYPE_HINT);
}

export function structNotObject(): Message {
  return message(
    'SYCL1003',
    'struct takes an object literal of field types',
    'write struct({ x: f32, count: u32 })',
  );
}

export function structFieldName(): Message {
  return message('SYCL1003', 'struct fields need plain names (letters, digits, underscores)');
}

export function atomicType(): Message {
  return message(
    'SYCL1003',
    'atomics hold i32, u32 or f32',
    'write atomic(u32), atomic(i32) or atomic(f32)',
  );
}

export function atomicSpecConstant(): Message {
  return message('SYCL1003', 'a specialization constant cannot be atomic');
}

export function boolAccessorElement(element: DataType): Message {
  return message(
    'SYCL1003',
    `accessor elements must be host-shareable, and ${typeName(element)} holds a bool`,
    'store the flag as u32 (0 or 1)',
  );
}

export function atomicValueArgument(): Message {
  return message(
    'SYCL1003',
    'a value argument cannot be atomic',
    "pass an accessor(atomic(u32), 'read_write')",
  );
}

export function atomicReturn(): Message {
  return message('SYCL1003', 'a function cannot return an atomic');
}

export function atomicParameter(): Message {
  return message('SYCL1003', 'a parameter cannot be atomic');
}

/** The context a struct field's type is reported in (`Reporter.inContext`). */
export function inStructField(name: string): string {
  return `struct field \`${name}\``;
}

// SYCL1004: an initial value that does not fit its type

/** Why a folded value does not fit its declared type (checked by frontend/lower/defaults.ts). */
export type Misfit =
  | { readonly kind: 'object' | 'bool' | 'number' | 'integer' }
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'shape'; readonly matrix: boolean; readonly length: number }
  | {
      readonly kind: 'count';
      readonly length: number;
      readonly found: number;
      readonly atMost: boolean;
    }
  /** `bounds`: the integer type's lowest and highest values; none for floats. */
  | { readonly kind: 'range'; readonly bounds: readonly [number, number] | null };

/** A value that does not fit: the value, its declared type (or its part's) and why. */
export interface ValueMisfit {
  readonly value: ConstValue;
  readonly type: DataType;
  readonly misfit: Misfit;
}

function misfitText({ value, type, misfit }: ValueMisfit): string {
  const detail = ((): string => {
    switch (misfit.kind) {
      case 'object':
        return 'expected an object';
      case 'bool':
        return 'expected true or false';
      case 'number':
        return 'expected a number';
      case 'integer':
        return 'expected an integer';
      case 'field':
        return `no field \`${misfit.name}\``;
      case 'shape':
        return `expected ${misfit.matrix ? 'a flat, column-major list' : 'a list'} of ${misfit.length} values`;
      case 'count':
        return `expected ${misfit.atMost ? 'at most ' : ''}${misfit.length} values, found ${misfit.found}`;
      case 'range':
        return misfit.bounds === null
          ? 'out of range'
          : `out of range ${misfit.bounds[0]}..${misfit.bounds[1]}`;
    }
  })();
  return `${describeConst(value)} does not fit ${typeName(type)}: ${detail}`;
}

export function spreadDefault(): Message {
  return message('SYCL1004', 'the default cannot be a spread');
}

export function defaultDoesNotFit(name: string, misfit: ValueMisfit): Message {
  return message('SYCL1004', `the default of \`${name}\` ${misfitText(misfit)}`, FIT_HINT);
}

export function initialValueNotConstant(name: string): Message {
  return message(
    'SYCL1004',
    `the initial value of \`${name}\` must be a constant expression (the build folds it)`,
    'write literals, arithmetic on them, array and object literals, or top-level constants',
  );
}

export function initialValueDoesNotFit(name: string, misfit: ValueMisfit): Message {
  return message('SYCL1004', `the initial value of \`${name}\` ${misfitText(misfit)}`, FIT_HINT);
}

export function reductionIdentityNotConstant(name: string): Message {
  return message(
    'SYCL1004',
    `the identity of reduction \`${name}\` must be a constant expression (the build folds it)`,
    'write literals, arithmetic on them, array and object literals, or top-level constants',
  );
}

export function reductionIdentityDoesNotFit(name: string, misfit: ValueMisfit): Message {
  return message(
    'SYCL1004',
    `the identity of reduction \`${name}\` ${misfitText(misfit)}`,
    FIT_HINT,
  );
}

// SYCL1005: bad device global properties

export function propertiesNotObject(): Message {
  return message(
    'SYCL1005',
    'device global properties must be an object literal',
    "write { hostAccess: 'read', deviceImageScope: true }",
  );
}

export function propertyEntry(): Message {
  return message('SYCL1005', 'properties need plain `name: value` entries');
}

export function hostAccessValue(): Message {
  return message('SYCL1005', "hostAccess is one of 'read', 'write', 'read_write', 'none'");
}

export function initModeValue(): Message {
  return message('SYCL1005', "initMode is 'reprogram' or 'reset'");
}

export function propertyNotBool(key: string): Message {
  return message('SYCL1005', `${key} must be true or false (a constant)`);
}

export function unknownProperty(key: string): Message {
  return message(
    'SYCL1005',
    `unknown device global property \`${key}\``,
    'properties: hostAccess, deviceImageScope, initMode, implementInCsr',
  );
}

// SYCL1006: bad kernel spec

export function kernelSpecNotObject(): Message {
  return message('SYCL1006', 'the kernel spec must be an object literal', `write ${USAGE.kernel}`);
}

/** `nearest`: the known key nearest to the entry's, if it looks misspelt. */
export function kernelSpecEntry(nearest: string | undefined): Message {
  return message(
    'SYCL1006',
    'a kernel spec has only range | ndRange, workgroupSize, args, local, requiredLimits',
    didYouMean(nearest),
  );
}

export function kernelBodyNotFunction(): Message {
  return message('SYCL1006', 'the kernel body must be an arrow function', `write ${USAGE.kernel}`);
}

export function kernelBodyParameters(nd: boolean): Message {
  return message(
    'SYCL1006',
    `a ${nd ? 'nd-range' : 'basic'} kernel body takes at most ${nd ? 4 : 3} parameters`,
    nd ? '(item, kh, args, local)' : '(item, kh, args)',
  );
}

export function requiredLimitsNotObject(): Message {
  return message(
    'SYCL1006',
    'requiredLimits must be an object literal of WebGPU limit names and numbers',
    'write requiredLimits: { maxComputeInvocationsPerWorkgroup: 1024 }',
  );
}

/** `key`: the entry's name, null when it has none. */
export function unknownRequiredLimit(key: string | null, nearest: string | undefined): Message {
  return message(
    'SYCL1006',
    `${key === null ? 'this entry' : `\`${key}\``} is not a limit a kernel can require; the limits are ${KERNEL_LIMITS.join(', ')}`,
    didYouMean(nearest),
  );
}

export function requiredLimitValue(key: string): Message {
  return message('SYCL1006', `requiredLimits.${key} must be a positive integer constant (a u32)`);
}

export function rangeOrNdRange(): Message {
  return message(
    'SYCL1006',
    'a kernel spec needs exactly one of `range` (basic) or `ndRange` (with workgroupSize)',
    'write { range: 2, args: {...} } or { ndRange: 2, workgroupSize: [8, 8], args: {...} }',
  );
}

export function dimensions(): Message {
  return message('SYCL1006', 'the number of dimensions must be 1, 2 or 3');
}

export function workgroupSizeNeedsNdRange(): Message {
  return message(
    'SYCL1006',
    'workgroupSize needs an nd-range kernel',
    'write ndRange instead of range',
  );
}

export function workgroupSizeList(dimensions: number): Message {
  return message(
    'SYCL1006',
    `an nd-range kernel needs workgroupSize: a list of ${dimensions} sizes`,
    `write workgroupSize: [${Array.from({ length: dimensions }, () => '8').join(', ')}]`,
  );
}

const SIZES = {
  workgroupSize: 'a workgroup size',
  lengthFactor: 'a workgroup array length factor',
} as const;

export type Size = keyof typeof SIZES;

export function sizeNotU32(size: Size, value: ConstValue): Message {
  return message(
    'SYCL1006',
    `${SIZES[size]} must be a positive integer that fits in u32, not ${describeConst(value)}`,
  );
}

/** `reason`: why the name cannot be read, when it is an import (then SYCL1008). */
export function sizeNotConstant(size: Size, reason: string | undefined): Message {
  return message(
    reason === undefined ? 'SYCL1006' : 'SYCL1008',
    `${SIZES[size]} must be an integer literal or an i32/u32 specializationId${reason === undefined ? '' : `: ${reason}`}`,
  );
}

export function missingArgs(): Message {
  return message(
    'SYCL1006',
    'a kernel spec needs `args`: an object literal of argument types',
    ARGS_HINT,
  );
}

export function argumentName(): Message {
  return message('SYCL1006', 'kernel arguments need plain names (letters, digits, underscores)');
}

export function accessMode(): Message {
  return message('SYCL1006', "an accessor's access mode is 'read', 'write' or 'read_write'");
}

const ARG_SPEC_HINT = "declare const common = { out: accessor(f32, 'write') } in this module";

export function argSpecCycle(name: string): Message {
  return message('SYCL1006', definedInTermsOfItself(name), ARG_SPEC_HINT);
}

export function argSpecNotConst(name: string): Message {
  return message(
    'SYCL1006',
    `\`${name}\` must be a top-level const of this module holding an object literal of argument types`,
    ARG_SPEC_HINT,
  );
}

export function argsNotObject(): Message {
  return message(
    'SYCL1006',
    '`args` must be an object literal of argument types, or a top-level const holding one',
    ARGS_HINT,
  );
}

export function workgroupArraysNeedNdRange(): Message {
  return message(
    'SYCL1006',
    'workgroup arrays need an nd-range kernel',
    'write ndRange and workgroupSize',
  );
}

export function localNotObject(): Message {
  return message('SYCL1006', '`local` must be an object literal of workgroupArray(...)');
}

export function workgroupArrayEntry(): Message {
  return message(
    'SYCL1006',
    'each workgroup array is `name: workgroupArray(type, ...lengthFactors)`',
    'write tile: workgroupArray(f32, blockSize, blockSize)',
  );
}

export function workgroupArrayLength(a: number, b: number, product: number): Message {
  return message(
    'SYCL1006',
    `the workgroup array's length ${a} × ${b} = ${product} does not fit in u32`,
  );
}

// SYCL1007: bad device function spec

export function functionSpecNotObject(): Message {
  return message(
    'SYCL1007',
    'the first argument of deviceFunction must be an object literal',
    FUNCTION_SPEC_HINT,
  );
}

export function functionSpecEntry(): Message {
  return message('SYCL1007', 'deviceFunction takes only `args` and `returns`', FUNCTION_SPEC_HINT);
}

export function functionArgsNotArray(): Message {
  return message(
    'SYCL1007',
    '`args` must be an array literal of DSL types, one per parameter',
    'write args: [f32, vec3f]',
  );
}

export function functionArgsEntry(): Message {
  return message('SYCL1007', '`args` must list one type per parameter');
}

export function handlerTwice(): Message {
  return message('SYCL1007', 'a device function takes the kernel handler once');
}

export function missingFunctionArgs(): Message {
  return message(
    'SYCL1007',
    'deviceFunction needs `args`',
    'write args: [] for a function without parameters',
  );
}

export function functionBodyNotFunction(): Message {
  return message(
    'SYCL1007',
    'the body of a deviceFunction must be an arrow function',
    `write ${USAGE.deviceFunction}`,
  );
}

export function parameterCount(types: number, parameters: number): Message {
  return message(
    'SYCL1007',
    `args lists ${types} type(s) but the function has ${parameters} parameter(s)`,
  );
}

// SYCL1008: an import the build cannot read

export function unresolvedType(text: string, reason: string): Message {
  return message(
    'SYCL1008',
    `cannot resolve the type \`${text}\`: ${reason}`,
    'declare the type alias in this module, or build through the syclts plugin so imported .sycl.ts modules can be read',
  );
}

/** A name that means nothing device code can use; an import's is SYCL1008, else SYCL1011. */
export function unusableName(name: string, reason: string, imported: boolean): Message {
  return message(
    imported ? 'SYCL1008' : 'SYCL1011',
    `\`${name}\` cannot be used in device code: ${reason}`,
  );
}

/** A callee that means nothing device code can call; an import's is SYCL1008, else SYCL1014. */
export function uncallableName(text: string, reason: string, imported: boolean): Message {
  return message(
    imported ? 'SYCL1008' : 'SYCL1014',
    `\`${text}\` cannot be called in device code: ${reason}`,
  );
}

// SYCL1010: syntax device code does not support

export function declarationTooDeep(): Message {
  return message(
    'SYCL1010',
    'the declaration nests expressions or statements too deeply to compile',
    'split long expressions with intermediate consts',
  );
}

/** Past the nesting the parser is given (frontend/nesting-scan.ts). */
export function sourceTooDeep(limit: number): Message {
  return message(
    'SYCL1010',
    `the code nests more than ${limit} brackets and operators deep here`,
    'split long expressions with intermediate consts, and nested code into functions',
  );
}

/** Past the nesting WGSL compilers accept, as the lowered body will print (depth-check.ts). */
export function wgslTooDeep(limit: number): Message {
  return message(
    'SYCL1010',
    `this code nests deeper than WGSL compilers accept (at most ${limit} levels of brackets, operators and blocks)`,
    NESTING_HINT,
  );
}

export function statementTooDeep(limit: number): Message {
  return message(
    'SYCL1010',
    `this statement nests deeper than WGSL compilers accept (at most ${limit} levels of nested blocks and statements)`,
    NESTING_HINT,
  );
}

export function expressionTooDeep(limit: number): Message {
  return message(
    'SYCL1010',
    `this expression nests deeper than WGSL compilers accept (at most ${limit} levels of operations, accesses and calls)`,
    NESTING_HINT,
  );
}

export function asyncKernel(): Message {
  return message('SYCL1010', 'a kernel body cannot be async or a generator');
}

export function kernelArgumentPattern(): Message {
  return message('SYCL1010', 'destructure kernel arguments by name only: { out, n }');
}

export function kernelParameterPattern(role: 'item' | 'handler' | 'args' | 'local'): Message {
  return message(
    'SYCL1010',
    role === 'item' || role === 'handler'
      ? `the ${role} parameter must be a plain name`
      : `the ${role} parameter must be a name or { a, b } destructuring`,
  );
}

export function functionParameterPattern(): Message {
  return message('SYCL1010', 'device function parameters must be plain names');
}

export function optionalCall(): Message {
  return message('SYCL1010', 'optional calls are not supported in device code');
}

export function spreadArgument(): Message {
  return message('SYCL1010', 'spread arguments are not supported in device code');
}

export function notADeviceValue(text: string): Message {
  return message('SYCL1010', `\`${text}\` is not a device value (numbers and booleans only)`);
}

export function unsupportedOperator(operator: string): Message {
  return message(
    'SYCL1010',
    `\`${operator}\` is not supported in device code`,
    operator === '**' ? 'write pow(a, b) or Math.pow(a, b)' : undefined,
  );
}

export function assignmentInExpression(text: string): Message {
  return message(
    'SYCL1010',
    `\`${text}\` changes a value inside an expression, which WGSL cannot do`,
    'write the assignment or increment as its own statement',
  );
}

export function templateLiteral(): Message {
  return message(
    'SYCL1010',
    'template literals are only allowed as a deviceFunction body: wgsl`...`',
  );
}

const EXPRESSIONS: Readonly<Record<string, string>> = {
  ArrowFunctionExpression: 'a function expression',
  FunctionExpression: 'a function expression',
  NewExpression: '`new`',
  ThisExpression: '`this`',
  AwaitExpression: '`await`',
  SequenceExpression: 'the comma operator',
  ClassExpression: 'a class',
  YieldExpression: '`yield`',
  ChainExpression: 'optional chaining',
  ImportExpression: 'a dynamic import',
  JSXElement: 'JSX',
};

/** `nodeType`: the expression's ESTree type (`NewExpression`, ...). */
export function unsupportedExpression(nodeType: string): Message {
  const what = Object.hasOwn(EXPRESSIONS, nodeType) ? EXPRESSIONS[nodeType]! : `\`${nodeType}\``;
  return message('SYCL1010', `${what} is not supported in device code`);
}

export function noWgslEquivalent(name: string): Message {
  return message('SYCL1010', `\`${name}\` has no WGSL equivalent`);
}

export function optionalChaining(): Message {
  return message('SYCL1010', 'optional chaining is not supported in device code');
}

export function privateField(): Message {
  return message('SYCL1010', 'private fields are not supported');
}

export function noEffect(text: string): Message {
  return message('SYCL1010', `\`${text}\` has no effect`);
}

export function chainedAssignment(): Message {
  return message('SYCL1010', 'chained assignments are not supported', 'assign one at a time');
}

export function labelledJump(): Message {
  return message('SYCL1010', 'labelled break/continue has no WGSL equivalent');
}

export function switchStatement(): Message {
  return message('SYCL1010', '`switch` is not supported in device code', 'write if / else if');
}

export function doWhile(): Message {
  return message(
    'SYCL1010',
    '`do ... while` is not supported in device code',
    'write while (true) { ...; if (!condition) break; }',
  );
}

export function forIn(): Message {
  return message(
    'SYCL1010',
    '`for ... in` is not supported in device code',
    'write for (let i = 0; i < n; i++)',
  );
}

export function nestedFunction(): Message {
  return message(
    'SYCL1010',
    'functions cannot be declared inside device code',
    'declare a top-level deviceFunction and call it',
  );
}

/** `nodeType`: the statement's ESTree type (`LabeledStatement`, ...). */
export function unsupportedStatement(nodeType: string): Message {
  return message(
    'SYCL1010',
    `${nodeType.replace(/Statement$|Declaration$/, '').toLowerCase() || 'this'} statements are not supported in device code`,
  );
}

export function varDeclaration(kind: string): Message {
  return message('SYCL1010', `\`${kind}\` is not supported in device code`, 'write let or const');
}

export function destructuring(): Message {
  return message(
    'SYCL1010',
    'destructuring is not supported in device code',
    'declare one name per value',
  );
}

export function uninitialized(name: string): Message {
  return message(
    'SYCL1010',
    `\`${name}\` needs an initial value (its WGSL type comes from it)`,
    `write let ${name} = f32(0); or the value it should start with`,
  );
}

export function forCounters(): Message {
  return message('SYCL1010', 'a for loop declares one counter in WGSL');
}

export function conditionalInForUpdate(): Message {
  return message(
    'SYCL1010',
    "a conditional with side effects cannot stay in a for loop's update",
    'move the update to the end of the loop body',
  );
}

export function arrayHoles(): Message {
  return message('SYCL1010', 'array literals cannot have holes or spreads');
}

export function structLiteralEntry(): Message {
  return message('SYCL1010', 'struct literals need plain `field: value` entries');
}

// SYCL1011: unknown name

export function noKernelArgument(name: string): Message {
  return message('SYCL1011', `the kernel declares no argument \`${name}\``);
}

export function noWorkgroupArray(name: string): Message {
  return message('SYCL1011', `the kernel declares no workgroup array \`${name}\``);
}

export function undefinedName(name: string, nearest: string | undefined): Message {
  return message('SYCL1011', `\`${name}\` is not defined in device code`, didYouMean(nearest));
}

/** A member of the kernel body's `args` or `local` parameter bound whole. */
export function noKernelMember(
  of: 'argument' | 'workgroup array',
  name: string,
  nearest: string | undefined,
): Message {
  return message('SYCL1011', `the kernel has no ${of} \`${name}\``, didYouMean(nearest));
}

// SYCL1012: type mismatch

const SUBJECTS = {
  result: 'the result',
  returnedValue: 'the returned value',
  rightHandSide: 'the right-hand side',
  element: 'every element',
  matrixArgument: 'a matrix argument',
  value: 'the value',
  branches: 'both branches',
  condition: 'a condition',
  ifCondition: 'an if condition',
  whileCondition: 'a while condition',
  forCondition: 'a for condition',
  imulArguments: 'Math.imul’s arguments',
} as const;

/** A value that must have a type: one of the fixed ones, or one of a callee or a name. */
export type Subject =
  | keyof typeof SUBJECTS
  /** `position`: from 1; `callee`: a built-in, as the source names it. */
  | { readonly kind: 'argument'; readonly position: number; readonly callee?: string }
  /** Any argument of a variadic built-in, or an operand of an atomic function. */
  | { readonly kind: 'anArgument' | 'operand'; readonly callee: string }
  /** A struct literal's field, a declared local, or the place assigned to (as written). */
  | { readonly kind: 'field' | 'local' | 'assigned'; readonly name: string };

function subjectText(subject: Subject): string {
  if (typeof subject === 'string') return SUBJECTS[subject];
  switch (subject.kind) {
    case 'argument':
      return `argument ${subject.position}${subject.callee === undefined ? '' : ` of ${subject.callee}`}`;
    case 'anArgument':
      return `an argument of ${subject.callee}`;
    case 'operand':
      return `an operand of ${subject.callee}`;
    case 'field':
      return `field \`${subject.name}\``;
    case 'local':
      return `\`${subject.name}\``;
    case 'assigned':
      return `the value assigned to \`${subject.name}\``;
  }
}

/** `text`: the value's source. */
export function valueType(
  subject: Subject,
  expected: DataType,
  found: DataType,
  text: string,
): Message {
  return message(
    'SYCL1012',
    `${subjectText(subject)} must be ${typeName(expected)}, not ${typeName(found)}`,
    conversionHint(found, expected, text),
  );
}

export function returnsNothing(text: string): Message {
  return message('SYCL1012', `\`${text}\` returns nothing`);
}

/**
 * No overload of `builtin` takes `args`, naming every overload:
 * `no overload of clamp takes (f32, i32, f32): clamp(T, T, T) -> T, ... where T is f32, f16, i32 or u32`.
 */
export function noOverload(builtin: Builtin, shown: string, args: readonly DataType[]): Message {
  const forms = builtin.overloads.map((o) => `${shown}${o.text}`).join(', ');
  const sets = (['T', 'S'] as const)
    .filter((k) => builtin.typeSets[k].length > 0)
    .map((k) => `${k} is ${orList(builtin.typeSets[k])}`);
  const where = sets.length > 0 ? ` where ${sets.join(' and ')}` : '';
  const otherwise = builtin.entry.otherwise ? `; ${builtin.entry.otherwise}` : '';
  return message(
    'SYCL1012',
    `no overload of ${shown} takes (${args.map(typeName).join(', ')}): ${forms}${where}${otherwise}`,
  );
}

function orList(items: readonly string[]): string {
  return items.length === 1
    ? items[0]!
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]!}`;
}

/** `kind`: what the name declares (`dsl` for a DSL export). */
export function notAValue(name: string, kind: string): Message {
  return message(
    'SYCL1012',
    `\`${name}\` is ${kind === 'dsl' ? 'a DSL export' : `a ${kind}`}, not a value`,
  );
}

export function kernelParameterNotAValue(
  name: string,
  role: 'item' | 'handler' | 'members',
): Message {
  return message(
    'SYCL1012',
    `\`${name}\` is the kernel's ${role === 'item' ? 'item' : role === 'handler' ? 'handler' : 'argument object'}, not a value`,
  );
}

export function unsignedShift(type: DataType): Message {
  return message(
    'SYCL1012',
    `\`>>>\` is a logical shift of a u32, not of ${typeName(type)}`,
    'convert the value with u32(...) first, or write `>>` for an arithmetic shift',
  );
}

export function unsignedShiftAssignment(): Message {
  return message('SYCL1012', '`>>>=` is a logical shift of a u32');
}

// Operators' typing rules (frontend/lower/operators.ts).

/** The operation as the messages show it: `f32 + i32`. */
function operation(operator: string, left: DataType, right: DataType): string {
  return `${typeName(left)} ${operator} ${typeName(right)}`;
}

export function logicalOperands(operator: string, left: DataType, right: DataType): Message {
  return message(
    'SYCL1012',
    `\`${operator}\` takes two bool scalars, not ${operation(operator, left, right)}`,
  );
}

export function comparedTypes(operator: string, left: DataType, right: DataType): Message {
  return message(
    'SYCL1012',
    `cannot compare ${operation(operator, left, right)}: the types differ`,
  );
}

export function unorderedBools(operator: string, left: DataType, right: DataType): Message {
  return message('SYCL1012', `bools are not ordered (${operation(operator, left, right)})`);
}

export function arithmeticOperands(operator: string, left: DataType, right: DataType): Message {
  return message(
    'SYCL1012',
    `\`${operator}\` needs numbers of one type, not ${operation(operator, left, right)}`,
  );
}

export function vectorSizes(operator: string, left: DataType, right: DataType): Message {
  return message('SYCL1012', `vector sizes differ in ${operation(operator, left, right)}`);
}

export function shiftedType(operator: string, type: DataType): Message {
  return message('SYCL1012', `\`${operator}\` shifts an i32 or u32, not ${typeName(type)}`);
}

export function shiftAmount(expected: DataType, found: DataType): Message {
  return message(
    'SYCL1012',
    `the shift amount must be ${typeName(expected)}, not ${typeName(found)}`,
  );
}

export function bitwiseOperands(operator: string, left: DataType, right: DataType): Message {
  return message(
    'SYCL1012',
    `\`${operator}\` needs two integers of one type, not ${operation(operator, left, right)}`,
  );
}

export function matrixOperands(operator: string, left: DataType, right: DataType): Message {
  return message(
    'SYCL1012',
    `\`${operator}\` is not defined for ${operation(operator, left, right)}`,
  );
}

export function notOperand(type: DataType): Message {
  return message('SYCL1012', `\`!\` negates a bool, not ${typeName(type)}`);
}

export function complementOperand(type: DataType): Message {
  return message('SYCL1012', `\`~\` needs an i32 or u32, not ${typeName(type)}`);
}

export function negatedU32(): Message {
  return message('SYCL1012', 'a u32 cannot be negated in WGSL');
}

export function negationOperand(type: DataType): Message {
  return message('SYCL1012', `\`-\` needs an i32, f32 or f16 value, not ${typeName(type)}`);
}

/** An operator's typing message, with how to fix the right operand (`text`) where one can tell. */
export function withOperandHint(
  typing: Message,
  shift: boolean,
  left: DataType,
  right: DataType,
  text: string,
): Message {
  const hint =
    shift && isInteger(scalarOf(right))
      ? `convert the shift amount: u32(${text})`
      : conversionHint(right, left, text);
  return message(typing.code, typing.message, hint);
}

export function compoundResult(target: DataType): Message {
  return message('SYCL1012', `the result is not ${typeName(target)}`);
}

export function incrementOperand(operator: string, type: DataType): Message {
  return message('SYCL1012', `\`${operator}\` needs a number, not ${typeName(type)}`);
}

export function branchTypes(whenTrue: DataType, whenFalse: DataType): Message {
  return message(
    'SYCL1012',
    `the branches have different types: ${typeName(whenTrue)} and ${typeName(whenFalse)}`,
  );
}

export function conditionalAccessors(): Message {
  return message(
    'SYCL1012',
    '`?:` cannot choose between accessors, which are not values',
    'choose the element instead: c ? a[i] : b[i]',
  );
}

export function boolForType(type: DataType): Message {
  return message('SYCL1012', `expected ${typeName(type)}, found a bool`);
}

export function expectedNumber(): Message {
  return message('SYCL1012', 'expected a number');
}

export function numberForType(type: DataType, value: ConstValue): Message {
  return message(
    'SYCL1012',
    `expected ${typeName(type)}, found the number ${describeConst(value)}`,
  );
}

export function emptyArray(): Message {
  return message('SYCL1012', 'an empty array has no WGSL type');
}

export function constantContext(): Message {
  return message('SYCL1012', 'this constant does not fit its context');
}

export function mixedConstantArray(value: ConstValue, first: DataType, other: DataType): Message {
  return message(
    'SYCL1012',
    `the elements of ${describeConst(value)} have different types: ${typeName(first)} and ${typeName(other)}`,
    'a WGSL array holds one type: write all numbers or all booleans',
  );
}

export function missingField(name: string): Message {
  return message('SYCL1012', `field \`${name}\` is missing`);
}

export function constantObjectContext(): Message {
  return message('SYCL1012', 'a constant object needs a struct type from its context');
}

export function constantNotADeviceValue(value: ConstValue): Message {
  return message('SYCL1012', `${describeConst(value)} is not a device value`);
}

export function arrayLiteralLength(expected: DataType & { kind: 'array' }, found: number): Message {
  return message(
    'SYCL1012',
    `expected ${expected.length} elements (${typeName(expected)}), found ${found}`,
  );
}

export function objectLiteralContext(): Message {
  return message(
    'SYCL1012',
    'an object literal needs a struct type from its context',
    'assign it to a struct-typed place (an accessor element, a device global, a parameter) or build it where one is expected',
  );
}

export function conversionOperand(scalar: ScalarName, type: DataType): Message {
  return message('SYCL1012', `${scalar}(...) converts a scalar, not ${typeName(type)}`);
}

export function vectorFrom(vector: DataType, from: DataType): Message {
  return message('SYCL1012', `cannot build ${typeName(vector)} from ${typeName(from)}`);
}

/** `text`: the component's source. */
export function vectorComponent(
  vector: DataType & { kind: 'vector' },
  found: DataType,
  text: string,
): Message {
  return message(
    'SYCL1012',
    `a component of ${typeName(vector)} must be ${vector.component}, not ${typeName(found)}`,
    conversionHint(found, withScalar(found, vector.component), text),
  );
}

// SYCL1013: a literal that does not fit

export function arrayLengthPastU32(text: string, length: number): Message {
  return message(
    'SYCL1013',
    `\`${text}\` is ${length}, which no u32 holds: an array this long cannot live on the GPU`,
  );
}

/** `float`: a float where an integer belongs; otherwise out of the type's range. */
export function literalDoesNotFit(
  value: { readonly value: number; readonly float: boolean; readonly exact?: bigint },
  scalar: ScalarName,
  float: boolean,
): Message {
  const shown = String(value.exact ?? value.value);
  const hint =
    value.float && isInteger(scalar)
      ? `write ${scalar}(${value.value}) to truncate it`
      : scalar === 'u32' && value.value < 0
        ? 'u32 values are never negative; use i32'
        : undefined;
  return message(
    'SYCL1013',
    float
      ? `${shown} is a float literal and does not convert to ${scalar} implicitly`
      : `${shown} does not fit in ${scalar}`,
    hint,
  );
}

// SYCL1014: bad call

export function declarationArguments(declaration: Declaration): Message {
  return message('SYCL1014', `expected ${USAGE[declaration]}`, `write ${USAGE[declaration]}`);
}

export function functionArguments(text: string, takes: number, given: number): Message {
  return message('SYCL1014', `\`${text}\` takes ${takes} argument(s), not ${given}`);
}

/** `position`: the argument's, from 1. */
export function handlerArgument(position: number, text: string): Message {
  return message(
    'SYCL1014',
    `argument ${position} of \`${text}\` is the kernel handler`,
    "pass the kernel's kh (or the kh parameter of the calling device function)",
  );
}

export function notCallable(text: string): Message {
  return message(
    'SYCL1014',
    `\`${text}\` cannot be called in device code`,
    'call a deviceFunction, a DSL built-in, a type constructor, or an item/handler method',
  );
}

/** `kind`: what the callee declares (a kernel, a deviceGlobal, ...). */
export function declarationNotCallable(text: string, kind: string): Message {
  return message('SYCL1014', `\`${text}\` is a ${kind}, which device code cannot call`);
}

export function takesTwoArguments(name: string): Message {
  return message('SYCL1014', `${name} takes 2 arguments`);
}

export function negArguments(): Message {
  return message('SYCL1014', 'neg takes 1 argument');
}

export function dslNotCallable(name: string): Message {
  return message('SYCL1014', `\`${name}\` from @syclts/dsl cannot be called in device code`);
}

/** A built-in or an atomic function called with the wrong number of arguments. */
export function builtinArguments(name: string, takes: number, given: number): Message {
  return message('SYCL1014', `${name} takes ${takes} argument(s), not ${given}`);
}

export function noWgslMath(method: string): Message {
  return message(
    'SYCL1014',
    `Math.${method} has no WGSL equivalent`,
    'see the DSL built-ins (sqrt, fma, mix, clamp, ...)',
  );
}

export function takesNoArgument(method: string): Message {
  return message('SYCL1014', `${method}() takes no argument`);
}

export function dimensionArgument(method: string, dimensions: number): Message {
  return message('SYCL1014', `${method} takes a constant dimension from 0 to ${dimensions - 1}`);
}

/** `reason`: why the argument cannot be read, when it is an import (then SYCL1008). */
export function specConstantArgument(reason: string | undefined): Message {
  return message(
    reason === undefined ? 'SYCL1014' : 'SYCL1008',
    `getSpecializationConstant takes a specializationId declared at top level${reason === undefined ? '' : `: ${reason}`}`,
  );
}

export function conversionArguments(scalar: ScalarName): Message {
  return message('SYCL1014', `${scalar}(...) converts exactly one value`);
}

export function vectorComponents(vector: DataType & { kind: 'vector' }, count: number): Message {
  return message('SYCL1014', `${typeName(vector)} needs ${vector.size} components, got ${count}`);
}

export function matrixArguments(matrix: DataType & { kind: 'matrix' }): Message {
  return message(
    'SYCL1014',
    `${typeName(matrix)} takes ${matrix.columns} column vectors or ${matrix.columns * matrix.rows} scalars`,
  );
}

export function compositeArguments(type: DataType): Message {
  return message('SYCL1014', `${typeName(type)} is built from one literal`);
}

export function notConstructible(type: DataType): Message {
  return message('SYCL1014', `${typeName(type)} cannot be constructed`);
}

// SYCL1015: assignment to something read-only

export function notAssignable(text: string): Message {
  return message('SYCL1015', `\`${text}\` cannot be assigned to`);
}

export function swizzleAssignment(): Message {
  return message(
    'SYCL1015',
    'WGSL assigns one vector component at a time',
    'assign the whole vector, or each component',
  );
}

export function parameterAssignment(name: string): Message {
  return message(
    'SYCL1015',
    `parameter \`${name}\` cannot be assigned to (WGSL parameters are immutable)`,
    `copy it first: let ${name}Copy = ${name};`,
  );
}

export function constAssignment(name: string): Message {
  return message('SYCL1015', `\`${name}\` is a const`, `declare it with let: let ${name} = ...`);
}

export function readOnlyAccessor(name: string): Message {
  return message(
    'SYCL1015',
    `accessor \`${name}\` is read-only`,
    "declare it with accessor(T, 'write') or accessor(T, 'read_write')",
  );
}

export function kernelArgumentAssignment(name: string): Message {
  return message(
    'SYCL1015',
    `kernel argument \`${name}\` cannot be assigned to`,
    `copy it first: let ${name}Copy = ${name};`,
  );
}

export function specConstantAssignment(): Message {
  return message('SYCL1015', 'a specialization constant cannot be assigned to in device code');
}

export function notAPlace(text: string): Message {
  return message('SYCL1015', `\`${text}\` is not a place that can be assigned to`);
}

// SYCL1016: no such member

/** `methods`: the item's methods, `barrier` aside. */
export function noItemMethod(method: string, nd: boolean, methods: readonly string[]): Message {
  return message(
    'SYCL1016',
    `${nd ? 'an nd-item' : 'an item'} has no method \`${method}\``,
    `available: ${methods.join(', ')}${nd ? ', barrier' : ''}`,
  );
}

export function noHandlerMethod(method: string): Message {
  return message(
    'SYCL1016',
    `the kernel handler has no method \`${method}\``,
    'write kh.getSpecializationConstant(id)',
  );
}

export function deviceGlobalAsValue(name: string): Message {
  return message(
    'SYCL1016',
    `\`${name}\` is a device global: use its \`.value\``,
    `write ${name}.value`,
  );
}

export function specConstantAsValue(name: string): Message {
  return message(
    'SYCL1016',
    `\`${name}\` is a specialization constant: read it through the kernel handler`,
    `write kh.getSpecializationConstant(${name})`,
  );
}

/** `text`: the device global's source. */
export function deviceGlobalMember(name: string, text: string): Message {
  return message(
    'SYCL1016',
    `a device global has only \`.value\` in device code, not \`.${name}\``,
    `write ${text}.value`,
  );
}

export function uncalledMethod(text: string): Message {
  return message('SYCL1016', `\`${text}\` must be called`, `write ${text}(...)`);
}

export function noField(struct: DataType & { kind: 'struct' }, name: string): Message {
  return message(
    'SYCL1016',
    `${typeName(struct)} has no field \`${name}\``,
    `fields: ${struct.fields.map((f) => f.name).join(', ')}`,
  );
}

/** A struct literal's entry that names no field. */
export function noLiteralField(struct: DataType, name: string): Message {
  return message('SYCL1016', `${typeName(struct)} has no field \`${name}\``);
}

export function swizzlePastEnd(swizzle: string, vector: DataType): Message {
  return message('SYCL1016', `\`.${swizzle}\` reads past the end of a ${typeName(vector)}`);
}

export function noMember(type: DataType, name: string): Message {
  return message(
    'SYCL1016',
    `${typeName(type)} has no member \`${name}\``,
    type.kind === 'vector' ? 'vectors have swizzles: .x .xy .zyx .rgba ...' : undefined,
  );
}

// SYCL1017: bad index

export function notIndexable(type: DataType): Message {
  return message('SYCL1017', `${typeName(type)} cannot be indexed`);
}

export function indexNotInteger(): Message {
  return message('SYCL1017', 'an index must be an integer');
}

export function indexOutOfBounds(index: number, type: DataType): Message {
  return message('SYCL1017', `index ${index} is out of bounds for ${typeName(type)}`);
}

/** `text`: the index's source. */
export function indexType(type: DataType, text: string): Message {
  return message(
    'SYCL1017',
    `an index must be i32 or u32, not ${typeName(type)}`,
    isFloat(scalarOf(type)) ? `write u32(${text})` : undefined,
  );
}

// SYCL1018: bad control flow

export function missingReturn(name: string, type: DataType): Message {
  return message(
    'SYCL1018',
    `\`${name}\` must return ${typeName(type)} on every path`,
    'end the function with a return statement',
  );
}

export function jumpOutsideLoop(jump: 'break' | 'continue'): Message {
  return message('SYCL1018', `\`${jump}\` outside a loop`);
}

export function kernelReturnsValue(): Message {
  return message('SYCL1018', 'a kernel returns no value');
}

export function functionReturnsNothing(): Message {
  return message('SYCL1018', 'this function declares no `returns` type');
}

export function returnWithoutValue(type: DataType): Message {
  return message('SYCL1018', `this function must return ${typeName(type)}`);
}

// SYCL1019: bad raw WGSL body (frontend/lower/raw-wgsl.ts checks the body)

export function wgslTokens(error: string): Message {
  return message('SYCL1019', `the raw WGSL body does not tokenize: ${error}`);
}

export function wgslClosesFunction(): Message {
  return message(
    'SYCL1019',
    '`}` closes the function early: a raw WGSL body holds the statements of one function',
  );
}

export function wgslUnopened(closer: string, opener: string): Message {
  return message('SYCL1019', `\`${closer}\` has no matching \`${opener}\``);
}

export function wgslMismatched(closer: string, opener: string): Message {
  return message('SYCL1019', `\`${closer}\` closes \`${opener}\``);
}

export function wgslAttribute(): Message {
  return message(
    'SYCL1019',
    'attributes belong to module-scope declarations, not to a raw WGSL function body',
  );
}

export function wgslModuleScope(keyword: string): Message {
  return message(
    'SYCL1019',
    `\`${keyword}\` declares at module scope: a raw WGSL body holds statements only`,
    'declare another deviceFunction for another function',
  );
}

export function wgslVarSpace(space: string): Message {
  return message(
    'SYCL1019',
    `a \`var<${space}>\` cannot be declared in a function body`,
    'use a deviceGlobal for storage, and let/var for locals',
  );
}

export function wgslUndeclared(name: string): Message {
  return message(
    'SYCL1019',
    `\`${name}\` is not declared in the raw WGSL body`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the hint shows the syntax
    'name parameters, specialization constants and device globals through ${...}, and declare locals with let, var or const',
  );
}

export function wgslUnclosed(opener: string): Message {
  return message('SYCL1019', `\`${opener}\` is not closed in the body`);
}

export function wgslEscape(): Message {
  return message('SYCL1019', 'invalid escape in the WGSL text');
}

/** `reason`: why the name cannot be read, when it is an import (then SYCL1008). */
export function wgslInterpolation(text: string, reason: string | undefined): Message {
  return message(
    reason === undefined ? 'SYCL1019' : 'SYCL1008',
    `\${${text}} must name a parameter, a specializationId or a deviceGlobal${reason === undefined ? '' : `: ${reason}`}`,
  );
}

// SYCL1020: atomics used wrongly

export function atomicReadAccessor(): Message {
  return message('SYCL1020', 'atomic elements need a read_write accessor');
}

export function notAnAtomicPlace(type: DataType): Message {
  return message(
    'SYCL1020',
    `atomic functions need an atomic(i32), atomic(u32) or atomic(f32) place, not ${typeName(type)}`,
    'declare the accessor element, device global or workgroup array with atomic(u32)',
  );
}

export function atomicsNeedReadWrite(): Message {
  return message('SYCL1020', 'atomics need a read_write accessor');
}

export function atomicRead(text: string): Message {
  return message(
    'SYCL1020',
    `\`${text}\` is atomic: read it with atomicLoad`,
    `write atomicLoad(${text})`,
  );
}

export function atomicWrite(text: string): Message {
  return message(
    'SYCL1020',
    `\`${text}\` is atomic: write it with atomicStore`,
    `write atomicStore(${text}, value)`,
  );
}

// SYCL1021: barrier outside an nd-range kernel

// SYCL1030: group functions used wrongly

/** `what`: the group function, or the `item.getGroup()` call, as written. */
export function groupsNeedNdRange(what: string): Message {
  return message(
    'SYCL1030',
    `${what} needs an nd-range kernel: basic kernels have no work-groups`,
    'declare the kernel with { ndRange: D, workgroupSize: [...] }',
  );
}

export function notAGroup(fn: string, text: string): Message {
  return message(
    'SYCL1030',
    `the first argument of ${fn} must be a group, not \`${text}\``,
    'pass item.getGroup() or item.getSubGroup(), or a const bound to one',
  );
}

export function groupAsValue(text: string): Message {
  return message(
    'SYCL1030',
    `\`${text}\` is a group, not a value`,
    'pass it to a group function, call its methods, or bind it: const g = item.getGroup()',
  );
}

export function noGroupMethod(
  scope: 'workgroup' | 'subgroup',
  method: string,
  methods: readonly string[],
): Message {
  return message(
    'SYCL1016',
    `a ${scope === 'workgroup' ? 'work-group' : 'sub-group'} has no method \`${method}\``,
    `available: ${methods.join(', ')}`,
  );
}

export function groupFunctionArguments(
  fn: string,
  arities: readonly number[],
  got: number,
): Message {
  return message(
    'SYCL1030',
    `${fn} takes ${arities.join(' or ')} argument${arities.at(-1) === 1 ? '' : 's'}, not ${got}`,
  );
}

export function subGroupOnly(fn: string): Message {
  return message(
    'SYCL1030',
    `${fn} works over a sub-group, not a work-group`,
    'pass item.getSubGroup()',
  );
}

export function subGroupBarrier(): Message {
  return message(
    'SYCL1030',
    'groupBarrier takes the work-group: WGSL has no sub-group barrier',
    'pass item.getGroup()',
  );
}

export function groupValueType(fn: string, type: DataType): Message {
  return message(
    'SYCL1030',
    `${fn} takes i32, u32 or f32 scalars and vectors, or bool, not ${typeName(type)}`,
  );
}

export function groupOperatorType(fn: string, operator: string, type: DataType): Message {
  const takes =
    operator === 'logicalAnd' || operator === 'logicalOr'
      ? 'bool'
      : operator.startsWith('bit')
        ? 'i32 and u32 scalars and vectors'
        : 'i32, u32 and f32 scalars and vectors';
  return message('SYCL1030', `${fn} with ${operator} combines ${takes}, not ${typeName(type)}`);
}

export function subGroupSizeValue(): Message {
  return message(
    'SYCL1030',
    'subGroupSize must be a power of two from 1 to 128, as a literal or a constant',
  );
}

export function subGroupSizeDivides(size: number, last: number): Message {
  return message(
    'SYCL1030',
    `subGroupSize ${size} does not divide the work-group's size in its last dimension (${last})`,
    'WGSL runs sub-groups along the last SYCL dimension (x): make it a multiple of the size',
  );
}

export function reductionArguments(): Message {
  return message(
    'SYCL1030',
    'reduction takes the element type and an operator, or the element type, an identity and a combiner',
    'e.g. sum: reduction(f32, plus), or best: reduction(Best, { value: 0, index: 0 }, better) with `better` a device function',
  );
}

export function spanArguments(): Message {
  return message(
    'SYCL1030',
    'span takes the element type and the number of values',
    'e.g. bins: reduction(span(u32, 16), plus)',
  );
}

export function spanExtent(max: number): Message {
  return message(
    'SYCL1030',
    `a span reduction's number of values must be an integer constant from 1 to ${max}`,
    'each item keeps one accumulator per value: reduce larger spans in a kernel of your own (see @syclts/algorithms histogram)',
  );
}

export function spanCombineWhole(name: string): Message {
  return message(
    'SYCL1030',
    `\`${name}\` is a span reduction: combine into one of its values`,
    `${name}[i].combine(x)`,
  );
}

export function notASpan(name: string): Message {
  return message(
    'SYCL1030',
    `\`${name}\` is a reduction of one value, not a span: it has no elements to index`,
    `${name}.combine(x), or declare it reduction(span(T, n), op)`,
  );
}

export function spanIndexEffects(name: string, clause: 'initializer' | 'update'): Message {
  return message(
    'SYCL1030',
    `the index into span reduction \`${name}\` has side effects, in a loop's ${clause}: the combine there reads the index twice`,
    'combine in the loop body, or bind the index to a const first',
  );
}

export function notAReductionOperator(text: string, reason?: string): Message {
  return message(
    reason === undefined ? 'SYCL1030' : 'SYCL1008',
    `a reduction combines with one of SYCL's function objects or a device function, not \`${text}\`${reason === undefined ? '' : `: ${reason}`}`,
    'plus, multiplies, minimum, maximum, bitAnd, bitOr, bitXor, logicalAnd or logicalOr, imported from @syclts/dsl, or a deviceFunction of two values of the type returning one, after an identity',
  );
}

export function combinerNeedsIdentity(text: string): Message {
  return message(
    'SYCL1030',
    `a reduction that combines with the device function \`${text}\` needs an identity: the value the reducer starts from`,
    `reduction(T, identity, ${text}), the identity a constant that leaves any value unchanged when combined with it`,
  );
}

export function combinerSignature(
  text: string,
  element: DataType,
  signature: {
    readonly params: readonly (DataType | 'handler')[];
    readonly returns: DataType | null;
  },
): Message {
  const params = signature.params.map((p) => (p === 'handler' ? 'kernelHandler' : typeName(p)));
  const returns = signature.returns ? typeName(signature.returns) : 'nothing';
  const t = typeName(element);
  return message(
    'SYCL1030',
    `the combiner \`${text}\` takes (${params.join(', ')}) and returns ${returns}: a reduction of ${t} combines with a function of (${t}, ${t}) returning ${t}`,
  );
}

export function combinerType(type: DataType): Message {
  return message(
    'SYCL1030',
    `a reduction with a combiner of ${typeName(type)}: its partial results live in buffers, which hold no bool or atomic`,
    'reduce a u32 (0 or 1) in place of a bool',
  );
}

export function reductionType(operator: string, type: DataType): Message {
  return message(
    'SYCL1030',
    `a reduction with ${operator} of ${typeName(type)}: reductions combine i32, u32 and f32 scalars and vectors (${operator === 'logicalAnd' || operator === 'logicalOr' ? 'the logical operators take bool, which a buffer cannot hold: reduce a u32 with bitAnd or bitOr' : 'the bit operators integers only'})`,
  );
}

export function reductionAsValue(name: string): Message {
  return message(
    'SYCL1030',
    `\`${name}\` is a reduction variable, not a value`,
    `fold values into it with ${name}.combine(x); the host reads the result from the buffer it bound`,
  );
}

export function reductionMethod(name: string, method: string): Message {
  return message(
    'SYCL1016',
    `a reduction variable has no method \`${method}\``,
    `available: combine (${name}.combine(x))`,
  );
}

export function combineAsValue(): Message {
  return message('SYCL1030', 'combine(x) is a statement: it gives no value');
}

export function notAGroupOperator(fn: string, text: string): Message {
  return message(
    'SYCL1030',
    `${fn} needs one of SYCL's function objects, not \`${text}\``,
    'plus, multiplies, minimum, maximum, bitAnd, bitOr, bitXor, logicalAnd or logicalOr, imported from @syclts/dsl',
  );
}

export function jointNotAnArray(fn: string, text: string): Message {
  return message(
    'SYCL1030',
    `${fn} works over one of the kernel's workgroup arrays, not \`${text}\``,
    "declare the array in the kernel's `local` and pass it: local.tile",
  );
}

export function jointOverSubGroup(fn: string): Message {
  return message(
    'SYCL1030',
    `${fn} works over the work-group, not a sub-group: every sub-group would go over the whole array`,
    'pass item.getGroup()',
  );
}

export function jointArrayType(fn: string, type: DataType): Message {
  return message(
    'SYCL1030',
    `${fn} takes an array of i32, u32 or f32 scalars or vectors, or of bool, not ${typeName(type)}`,
  );
}

export function jointScanArrays(fn: string, input: string, output: string): Message {
  return message(
    'SYCL1030',
    `the output of ${fn} must have the element type and length of its input: ${input} and ${output}`,
    'declare both workgroup arrays with the same element type and length factors, or scan in place',
  );
}

export function jointScanAsValue(fn: string): Message {
  return message(
    'SYCL1030',
    `${fn} writes its output array and gives no value`,
    `call it as a statement: ${fn}(g, input, output, op);`,
  );
}

export function jointComparison(fn: string, text: string): Message {
  return message(
    'SYCL1030',
    `${fn} compares each element with a value by one of '==', '!=', '<', '<=', '>', '>=' (a string literal), not \`${text}\``,
    `write ${fn}(g, local.xs, '>', 0)`,
  );
}

export function jointPredicateArray(fn: string, type: DataType, compared: boolean): Message {
  return message(
    'SYCL1030',
    compared
      ? `${fn} compares i32, u32 or f32 elements, not ${typeName(type)}`
      : `${fn} with no comparison takes an array of bool, not ${typeName(type)}`,
    compared
      ? 'over a bool array, leave out the comparison and the value'
      : `compare each element with a value: ${fn}(g, local.xs, '>', 0)`,
  );
}

export function barrierAsValue(): Message {
  return message('SYCL1021', 'item.barrier() is a statement, not a value');
}

export function barrierNeedsNdRange(): Message {
  return message(
    'SYCL1021',
    'barriers need an nd-range kernel',
    'declare the kernel with { ndRange: D, workgroupSize: [...] }',
  );
}

export function barrierScope(): Message {
  return message('SYCL1021', "barrier takes 'local' or 'global'");
}

export function barrierArguments(): Message {
  return message('SYCL1021', "barrier takes at most one argument ('local' or 'global')");
}

// SYCL1022: recursion in a module

export function recursiveCall(callee: string): Message {
  return message(
    'SYCL1022',
    `\`${callee}\` is called recursively, which WGSL does not allow`,
    'rewrite the recursion as a loop',
  );
}

// SYCL1023: duplicate declaration

export function duplicateField(name: string): Message {
  return message('SYCL1023', `field \`${name}\` appears twice`);
}

export function alreadyDeclared(name: string): Message {
  return message('SYCL1023', `\`${name}\` is already declared in this scope`);
}

// SYCL1024: an invalid constant operation

export function constantZeroDivisor(operator: '/' | '%'): Message {
  return message(
    'SYCL1024',
    `integer ${operator === '/' ? 'division' : 'remainder'} by a constant zero is invalid in WGSL`,
  );
}

export function constantShift(amount: number): Message {
  return message(
    'SYCL1024',
    `a shift by ${amount} is invalid in WGSL: the amount must be less than 32`,
  );
}

/** `rule`: the built-in's own rule, as the built-in table words it. */
export function constantBuiltinRule(rule: string): Message {
  return message('SYCL1024', rule);
}

/** `reason`: why the number model refuses the operation (frontend/resolver/numbers.ts). */
export function invalidConstant(reason: string): Message {
  return message('SYCL1024', `this constant expression is invalid in WGSL: ${reason}`);
}

// SYCL1025: a bit operation on an f32 atomic

/** `atomicAnd`, `atomicOr` or `atomicXor` on an `atomic(f32)` place. */
export function atomicBitsOnF32(fn: string, place: string): Message {
  return message(
    'SYCL1025',
    `${fn} works on the bits of an integer: \`${place}\` is an atomic(f32), which has add, sub, min, max, load, store, exchange and compare-exchange`,
    'keep the bits in an atomic(u32) and convert with bitcastU32 / bitcastF32',
  );
}

// SYCL1026: an operator TypeScript does not have for its operands

/** The DSL function that spells a binary operator on vectors and matrices, if there is one. */
const OPERATOR_FUNCTIONS: Readonly<Record<string, string>> = {
  '+': 'add',
  '-': 'sub',
  '*': 'mul',
  '/': 'div',
  '%': 'rem',
  '==': 'eq',
  '===': 'eq',
  '!=': 'ne',
  '!==': 'ne',
  '<': 'lt',
  '<=': 'le',
  '>': 'gt',
  '>=': 'ge',
};

const COMPARISONS = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge']);

function composite(...types: DataType[]): string {
  return types.some((t) => t.kind === 'matrix') ? 'matrices' : 'vectors';
}

/** `text.x` for a vector operand, `text` for a scalar one. */
function component(type: DataType, text: string): string {
  return type.kind === 'scalar' ? text : `${text}.x`;
}

/** `a + b` where an operand is a vector or a matrix: the editor refuses it, or types it as a number. */
export function compositeOperator(
  operator: string,
  left: DataType,
  right: DataType,
  leftText: string,
  rightText: string,
): Message {
  const fn = OPERATOR_FUNCTIONS[operator];
  const hint =
    fn === undefined
      ? `apply it to each component: ${component(left, leftText)} ${operator} ${component(right, rightText)}, ...`
      : COMPARISONS.has(fn)
        ? `use ${fn}(${leftText}, ${rightText}), a bool vector (all(...) or any(...) make one bool of it)`
        : `use ${fn}(${leftText}, ${rightText})`;
  return message(
    'SYCL1026',
    `${composite(left, right)} have no \`${operator}\` operator in TypeScript (${operation(operator, left, right)})`,
    hint,
  );
}

/** `-v`, `!v`, `~v`, `+v` on a vector or matrix: TypeScript types the result as a number. */
export function compositeUnary(operator: string, type: DataType, text: string): Message {
  const hint =
    operator === '-'
      ? `use neg(${text})`
      : operator === '+'
        ? `leave out the \`+\`: ${text}`
        : operator === '!'
          ? `use eq(${text}, ${type.kind === 'vector' ? vectorConstructor(type.size, type.component) : typeName(type)}(false))`
          : `apply it to each component: ${operator}${text}.x, ...`;
  return message(
    'SYCL1026',
    `${composite(type)} have no unary \`${operator}\` in TypeScript, which types \`${operator}${text}\` as a ${operator === '!' ? 'boolean' : 'number'}`,
    hint,
  );
}

/** `v += w` on a vector or matrix. */
export function compositeAssignment(
  operator: string,
  type: DataType,
  target: string,
  value: string,
): Message {
  const fn = OPERATOR_FUNCTIONS[operator.slice(0, -1)];
  return message(
    'SYCL1026',
    `${composite(type)} have no \`${operator}\` operator in TypeScript (${typeName(type)} \`${target}\`)`,
    fn === undefined
      ? `assign each component: ${target}.x ${operator} ...`
      : `write ${target} = ${fn}(${target}, ${value})`,
  );
}

/** `a & b` on bools: TypeScript has `&&`, `||` and `!==` for them (`fixed` is the expression so written). */
export function boolBitwise(operator: string, fixed: string): Message {
  return message(
    'SYCL1026',
    `bools have no \`${operator}\` operator in TypeScript`,
    `use ${fixed}`,
  );
}

// SYCL1031: textures used wrongly

const TEXTURE_ARGS_HINT =
  "write args: { src: texture2d(f32), dst: storageTexture2d('rgba8unorm', 'write'), smp: sampler() }";

export function textureSampleType(): Message {
  return message(
    'SYCL1031',
    "a sampled texture's texels are read as f32, i32 or u32",
    'write texture2d(f32) for float and normalised formats, texture2d(u32) or texture2d(i32) for integer ones',
  );
}

export function storageFormat(text: string, formats: readonly string[]): Message {
  return message(
    'SYCL1031',
    `${text} is not a storage texture format`,
    `use one of ${formats.map((f) => `'${f}'`).join(', ')}`,
  );
}

export function storageAccess(): Message {
  return message(
    'SYCL1031',
    "a storage texture's access is 'read', 'write' or 'read_write'",
    TEXTURE_ARGS_HINT,
  );
}

export function readWriteFormat(format: string, formats: readonly string[]): Message {
  return message(
    'SYCL1031',
    `a 'read_write' storage texture of format '${format}': WebGPU reads and writes only ${formats.map((f) => `'${f}'`).join(', ')} in one texture`,
    "bind two textures, one 'read' and one 'write'",
  );
}

export function textureDeclarationArguments(name: string, takes: string): Message {
  return message('SYCL1031', `${name} takes ${takes}`, TEXTURE_ARGS_HINT);
}

export function textureAsValue(name: string, kind: string): Message {
  return message(
    'SYCL1031',
    `\`${name}\` is a ${kind} argument, not a value`,
    kind === 'sampler'
      ? `pass it to a sampling built-in: textureSampleLevel(t, ${name}, uv, 0)`
      : `pass it to a texture built-in: textureLoad(${name}, coords, 0), textureDimensions(${name})`,
  );
}

export function notATextureArgument(fn: string, what: string, text: string): Message {
  return message(
    'SYCL1031',
    `\`${fn}\` takes ${what} of the kernel's arguments, not \`${text}\``,
    TEXTURE_ARGS_HINT,
  );
}

export function textureArity(fn: string, signature: string, given: number): Message {
  return message(
    'SYCL1031',
    `\`${fn}\` does not take ${given} argument(s) here`,
    `write ${signature}`,
  );
}

export function textureShape(
  fn: string,
  name: string,
  shape: string,
  allowed: readonly string[],
): Message {
  return message(
    'SYCL1031',
    `\`${fn}\` does not take \`${name}\`, a ${shape} texture`,
    `it takes ${allowed.join(', ')}`,
  );
}

export function textureAccess(fn: string, name: string, access: string): Message {
  return message(
    'SYCL1031',
    `\`${fn}\` ${fn === 'textureStore' || fn === 'write' ? 'writes' : 'reads'} \`${name}\`, a storage texture declared with access '${access}'`,
    "declare it with the access the kernel needs ('read', 'write' or 'read_write')",
  );
}

export function textureArgumentType(
  fn: string,
  what: string,
  expected: string,
  found: DataType,
  text: string,
): Message {
  return message(
    'SYCL1031',
    `\`${fn}\` takes ${what} as ${expected}; \`${text}\` is ${typeName(found)}`,
  );
}

export function gatherComponent(text: string): Message {
  return message(
    'SYCL1031',
    `textureGather's component is a constant 0, 1, 2 or 3, not \`${text}\``,
  );
}

export function textureStoreAsValue(): Message {
  return message('SYCL1031', 'textureStore gives no value', 'call it as a statement');
}

export function textureMethod(name: string, method: string, kind: string): Message {
  return message(
    'SYCL1031',
    `\`${name}\`, a ${kind} argument, has no method \`${method}\``,
    'use read(coords) or write(coords, texel) on 1d, 2d and 3d textures, or a texture built-in',
  );
}

// SYCL1032: console.log used wrongly

/** `console.warn`, `console.error`, ...: device code prints with `console.log` only. */
export function consoleMethod(method: string): Message {
  return message(
    'SYCL1032',
    `\`console.${method}\` is not available in device code: \`console.log\` prints a line`,
    'write console.log(...)',
  );
}

/** A value console.log cannot print: a struct, an array, an atomic. */
export function logArgument(text: string, type: DataType): Message {
  return message(
    'SYCL1032',
    `console.log cannot print \`${text}\`, a ${typeName(type)}: it prints text, numbers, bools and vectors of them`,
    'print its fields or elements one by one: console.log(p.x, p.y)',
  );
}

/** Text that is not known at build time: a string joined to a device value, a spread. */
export function logText(text: string): Message {
  return message(
    'SYCL1032',
    `\`${text}\` is not text known at build time: console.log's text is string literals, template literals and constants`,
    'pass the values as arguments, console.log("n =", n), or in the holes of a template literal',
  );
}

/** More values than one record of the log holds. */
export function logTooLarge(words: number, max: number): Message {
  return message(
    'SYCL1032',
    `console.log prints at most ${max} numbers per line (a vec4 counts 4), this one ${words}`,
    'split it into several console.log calls',
  );
}

// SYCL1033: unroll used wrongly

/** `for (let i of unroll(4))`, `for (const [a, b] of ...)`: one `const` name per copy. */
export function unrollVariable(): Message {
  return message(
    'SYCL1033',
    '`for ... of unroll(...)` declares one `const` name: each copy of the body gets its own value',
    'write for (const i of unroll(4)) { ... }',
  );
}

/** `unroll(a, b, c, d)`, `unroll()`. */
export function unrollArguments(count: number): Message {
  return message(
    'SYCL1033',
    `\`unroll\` takes 1 to 3 arguments (end; or start, end and step), not ${count}`,
    'write unroll(4) for 0 to 3, or unroll(0, 32, 16) for 0 and 16',
  );
}

/** A bound known only at run time, negative or fractional. */
export function unrollBound(which: 'start' | 'end' | 'step', text: string): Message {
  return message(
    'SYCL1033',
    `\`unroll\`'s ${which} must be ${which === 'step' ? 'a positive' : 'a non-negative'} integer constant known at build time, not \`${text}\``,
    'use a literal or a top-level const; a specialization constant or a run-time value needs an ordinary for loop',
  );
}

/** More copies than `limit`; `nested` when the unrolls around this one multiplied them. */
export function unrollCount(count: number, limit: number, nested: boolean): Message {
  return message(
    'SYCL1033',
    `\`unroll\` would write the body out ${count} times${nested ? ' with the unrolls around it' : ''}, more than ${limit}`,
    'unroll an inner loop only, or write an ordinary for loop',
  );
}

/** `break` or `continue` that would leave a copy of an unrolled body. */
export function unrollJump(kind: 'break' | 'continue'): Message {
  return message(
    'SYCL1033',
    `\`${kind}\` cannot leave an unrolled loop: its body is written out once per value`,
    'put the rest of the body under an if, or write an ordinary for loop',
  );
}

/** `for ... of` over anything but `unroll(...)`, or `for await`. */
export function forOfOther(text: string): Message {
  return message(
    'SYCL1033',
    `device code loops \`for ... of\` over \`unroll(...)\` only, not \`${text}\``,
    'write for (let i = 0; i < n; i++), or for (const i of unroll(4)) with constant bounds',
  );
}

// SYCL1040: a joint matrix outside an nd-range kernel

export function matrixOutsideKernel(fn: string): Message {
  return message(
    'SYCL1040',
    `\`${fn}\` is used outside an nd-range kernel's body: joint matrices live in the body of a kernel with a work-group size, not in device functions or basic kernels`,
    'declare and use the matrices in the kernel body: kernel({ global, local, ... }, ({ item }) => { const sg = item.getSubGroup(); ... })',
  );
}

export function matrixNotSubGroup(fn: string, text: string): Message {
  return message(
    'SYCL1040',
    `\`${fn}\` takes the item's sub-group first, not ${text === 'nothing' ? 'nothing' : `\`${text}\``}`,
    'const sg = item.getSubGroup(); then pass sg',
  );
}

// SYCL1041: a joint matrix declared wrongly

export function matrixUse(text: string): Message {
  return message(
    'SYCL1041',
    `a joint matrix's use is 'a', 'b' or 'accumulator', not \`${text}\``,
    "jointMatrix(sg, 'a', f16, 16, 16)",
  );
}

export function matrixElement(text: string): Message {
  return message(
    'SYCL1041',
    `a joint matrix holds f16, f32, i32 or u32, not \`${text}\``,
    "pass the DSL type: jointMatrix(sg, 'accumulator', f32, 16, 16)",
  );
}

export function matrixSide(which: 'rows' | 'columns', text: string, max: number): Message {
  return message(
    'SYCL1041',
    `a joint matrix's ${which} must be an integer constant from 1 to ${max}, not \`${text}\``,
    "write a literal or a top-level const: the shape is part of the matrix's type",
  );
}

export function matrixLayout(text: string): Message {
  return message('SYCL1041', `a joint matrix layout is 'rowMajor' or 'colMajor', not \`${text}\``);
}

export function accumulatorLayout(): Message {
  return message(
    'SYCL1041',
    'an accumulator has no layout of its own: its loads and stores name one',
    "jointMatrix(sg, 'accumulator', f32, 16, 16), then jointMatrixStore(sg, c, out, offset, stride, 'rowMajor')",
  );
}

export function matrixScalarOperator(text: string): Message {
  return message(
    'SYCL1041',
    `jointMatrixApply applies '+', '-' or '*', not \`${text}\``,
    "jointMatrixApply(sg, m, '*', 2)",
  );
}

// SYCL1042: a joint matrix used as a value

export function matrixAsValue(name: string): Message {
  return message(
    'SYCL1042',
    `\`${name}\` is a joint matrix, not a value: it cannot be stored, passed to a function, returned or chosen by ?:`,
    'pass it to the joint-matrix functions (jointMatrixLoad, jointMatrixMad, jointMatrixStore, ...)',
  );
}

export function matrixFunctionAsValue(fn: string): Message {
  return message(
    'SYCL1042',
    fn === 'jointMatrix'
      ? '`jointMatrix(...)` declares a matrix: it is the whole initializer of a const'
      : `\`${fn}(...)\` gives no value: call it as a statement`,
    fn === 'jointMatrix' ? "const c = jointMatrix(sg, 'accumulator', f32, 16, 16);" : undefined,
  );
}

export function notAMatrix(fn: string, position: number, text: string): Message {
  return message(
    'SYCL1042',
    `argument ${position} of \`${fn}\` is a joint matrix, not \`${text}\``,
    "declare one: const m = jointMatrix(sg, 'a', f16, 16, 16)",
  );
}

export function matrixInLoopHeader(): Message {
  return message(
    'SYCL1042',
    "a joint matrix is declared in a for loop's header",
    'declare it before the loop',
  );
}

// SYCL1043: joint matrix operands that do not fit

export function jointMatrixOperands(fn: string, problem: string): Message {
  return message(
    'SYCL1043',
    `\`${fn}\`'s matrices do not fit: ${problem}`,
    'jointMatrixMad(sg, d, a, b, c) computes d = a × b + c with a M × K, b K × N, c and d M × N',
  );
}

export function matrixStoreUse(name: string, use: string): Message {
  return message(
    'SYCL1043',
    `\`${name}\` is a matrix of use '${use}': jointMatrixStore stores accumulators`,
  );
}

export function matrixLayoutMissing(fn: string, name: string): Message {
  return message(
    'SYCL1043',
    `\`${name}\` is an accumulator: \`${fn}\` takes its layout last`,
    `${fn}(sg, ${name}, memory, offset, stride, 'rowMajor')`,
  );
}

export function matrixLayoutGiven(fn: string, name: string): Message {
  return message(
    'SYCL1043',
    `\`${name}\` has its layout in its type: \`${fn}\` takes (sg, matrix, memory, offset, stride)`,
    "give the layout where the matrix is declared: jointMatrix(sg, 'b', f16, 16, 16, 'colMajor')",
  );
}

// SYCL1044: joint matrix memory of the wrong kind

export function matrixMemory(fn: string, text: string): Message {
  return message(
    'SYCL1044',
    `\`${fn}\` takes a kernel's accessor or workgroup array, or an element of one that is an array, not \`${text}\``,
    'pass args.name or local.name with an element offset and a stride',
  );
}

export function matrixMemoryElement(
  fn: string,
  text: string,
  held: string,
  element: string,
): Message {
  return message(
    'SYCL1044',
    `\`${text}\` holds ${held}, and \`${fn}\`'s matrix ${element}: the memory holds the matrix's element type`,
  );
}

export function matrixStoreReadOnly(name: string): Message {
  return message(
    'SYCL1044',
    `\`${name}\` is a read-only accessor: jointMatrixStore writes it`,
    "declare it accessor(T, 'write') or accessor(T, 'read_write')",
  );
}

// SYCL1050 to SYCL1054: past WGSL's limits (ir/wgsl-limits.ts)

export function functionMemory(
  declaration: { readonly kind: 'kernel' | 'device function'; readonly name: string },
  bytes: number,
  crossing: { readonly type: DataType; readonly name: string },
  limit: number,
): Message {
  return message(
    'SYCL1050',
    `the locals of ${declaration.kind} \`${declaration.name}\` take ${bytes} bytes, ${typeName(crossing.type)} \`${crossing.name}\` among them; WGSL allows ${limit} bytes of function memory per function`,
    'index large data where it lives (an accessor, a device global, a workgroup array) instead of copying it into a local',
  );
}

export function reductionMemory(kernel: string, bytes: number, limit: number): Message {
  return message(
    'SYCL1050',
    `the reductions of kernel \`${kernel}\` keep ${bytes} bytes of accumulators in each item (a span's: one per value); WGSL allows ${limit} bytes of function memory per function`,
    'reduce fewer values per span, or count into workgroup memory or an accessor yourself',
  );
}

export function arrayConstructor(count: number, limit: number): Message {
  return message(
    'SYCL1051',
    `this array has ${count} elements; a WGSL array value constructor takes at most ${limit}`,
    'pass large tables through an accessor, or fill a device global or a workgroup array in a loop',
  );
}

export function structMembers(count: number, limit: number): Message {
  return message(
    'SYCL1052',
    `this struct has ${count} fields; WGSL allows at most ${limit}`,
    'group fields into nested structs or arrays',
  );
}

export function functionParams(name: string, count: number, limit: number): Message {
  return message(
    'SYCL1053',
    `\`${name}\` takes ${count} parameters; a WGSL function takes at most ${limit}`,
    'pass related values together as a struct',
  );
}

export function typeNesting(depth: number, limit: number): Message {
  return message(
    'SYCL1054',
    `this type nests ${depth} levels deep (arrays, structs, vectors 1 and matrices 2 each); WGSL allows ${limit}`,
    'flatten inner arrays into one longer array and compute the index',
  );
}

// Reasons: why a name means nothing device code can use (the resolver's opaque entities), the
// clause that ends SYCL1003, SYCL1008, SYCL1011 and SYCL1014 messages about it.

export function definedInTermsOfItself(name: string): string {
  return `\`${name}\` is defined in terms of itself`;
}

/** `keyword`: the top-level declaration's (`let`, `var`, ...); null: a function or class. */
export function hostCode(name: string, keyword: string | null): string {
  const what = keyword === null ? 'a host function or class' : `a top-level \`${keyword}\``;
  return `\`${name}\` is ${what}, which is host code`;
}

export function exportNotAConst(name: string): string {
  return `\`${name}\` is not a const`;
}

export function ambiguousExport(module: string, name: string): string {
  return `module '${module}' exports \`${name}\` through several 'export *' with different meanings`;
}

export function missingExport(module: string, name: string): string {
  return `module '${module}' exports no \`${name}\``;
}

const UNREADABLE = {
  noLoader: 'no import loader was given to the compiler',
  tooDeep: 'imports nest too deeply',
  unknown: 'not a .sycl.ts module the build knows',
  unparsable: 'it does not parse',
} as const;

export function unreadableImport(specifier: string, cause: keyof typeof UNREADABLE): string {
  return `\`${specifier}\` cannot be read at build time (${UNREADABLE[cause]})`;
}

export function noValidType(name: string): string {
  return `\`${name}\` has no valid type`;
}

export function noValidSignature(name: string): string {
  return `\`${name}\` has no valid signature`;
}

export function hostValue(name: string): string {
  return `\`${name}\` is a host value the build cannot evaluate`;
}
