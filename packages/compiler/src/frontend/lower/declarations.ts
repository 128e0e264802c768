/** Builds the IR of each top-level declaration: specialization IDs, device globals, kernels, functions. */
import {
  type AccessMode,
  type DataType,
  fitsScalar,
  type GroupOperatorName,
  type HostAccess,
  type InitMode,
  type JsonValue,
  KERNEL_LIMITS,
  type KernelLimit,
  READ_WRITE_FORMATS,
  type RequiredLimits,
  type SampleScalar,
  STORAGE_FORMATS,
  type StorageDimension,
  type StorageFormat,
  sameType,
  sizeOf,
  type TextureDimension,
  zeroValue,
} from '@syclts/dsl';
import type {
  CallExpression,
  FunctionBody,
  ObjectPropertyKind,
  ParamPattern,
  VariableDeclarator,
} from 'oxc-parser';
import type { Message } from '../../diagnostics/codes.js';
import * as msg from '../../diagnostics/frontend-messages.js';
import { recursiveCalls } from '../../ir/call-graph.js';
import type { Block, Expr } from '../../ir/device-code.js';
import type {
  DeviceGlobalDecl,
  FunctionDecl,
  FunctionParam,
  KernelDecl,
  KernelParam,
  KernelRange,
  ReductionOperator,
  SpecConstantDecl,
  WgslPart,
  WorkgroupArrayDecl,
} from '../../ir/device-object.js';
import type { Span } from '../../ir/span.js';
import { functionMemory, WGSL_LIMITS } from '../../ir/wgsl-limits.js';
import { type Expression, propertyName, unwrap } from '../ast.js';
import type { Resolver } from '../resolver/resolver.js';
import { containsAtomic, hostShareable, isInteger, scalarOf, U32 } from '../resolver/types.js';
import { nearest } from '../suggest.js';
import { type CallSite, createLowering } from './context.js';
import { checkDefault } from './defaults.js';
import { GROUP_OPERATOR_NAMES, operatorCombines } from './groups.js';
import { checkRawWgsl } from './raw-wgsl.js';
import { Scopes } from './scope.js';
import { alwaysReturns, lowerBody } from './statements.js';

/**
 * The most values a span reduction holds: each item keeps one accumulator per value, and each
 * work-group combines them one after another.
 */
export const MAX_SPAN_EXTENT = 256;

type Node = { readonly start: number; readonly end: number };
type Arg = CallExpression['arguments'][number];

const argExpr = (a: Arg | undefined): Expression | null =>
  a && a.type !== 'SpreadElement' ? (a as Expression) : null;

export class DeclarationBuilder {
  /** Local device functions each function calls, for the recursion check. */
  readonly callGraph = new Map<string, CallSite[]>();

  constructor(private readonly resolver: Resolver) {}

  private get reporter() {
    return this.resolver.reporter;
  }

  private span(node: Node) {
    return this.reporter.source.span(node.start, node.end);
  }

  private args(
    call: CallExpression,
    min: number,
    max: number,
    declaration: msg.Declaration,
  ): (Expression | null)[] | null {
    if (call.arguments.length < min || call.arguments.length > max) {
      this.reporter.error(call, msg.declarationArguments(declaration));
      return null;
    }
    return call.arguments.map(argExpr);
  }

  specConstant(
    name: string,
    decl: VariableDeclarator,
    call: CallExpression,
  ): SpecConstantDecl | null {
    const args = this.args(call, 1, 2, 'specializationId');
    if (!args?.[0]) return null;
    const type = this.resolver.evalType(args[0]);
    if (!type) return null;
    if (containsAtomic(type)) {
      this.reporter.error(args[0], msg.atomicSpecConstant());
      return null;
    }
    let defaultValue: JsonValue = zeroValue(type);
    const defaultNode = args[1];
    if (call.arguments.length > 1 && !defaultNode) {
      this.reporter.error(call.arguments[1]!, msg.spreadDefault());
      return null;
    }
    if (defaultNode) {
      const folded = this.resolver.evalConst(defaultNode);
      if (folded) {
        const checked = checkDefault(folded, type);
        if (!checked.ok) {
          this.reporter.error(defaultNode, msg.defaultDoesNotFit(name, checked));
          return null;
        }
        defaultValue = checked.json;
      } else {
        defaultValue = null;
      }
    }
    return { name, type, defaultValue, span: this.span(decl) };
  }

  deviceGlobal(
    name: string,
    decl: VariableDeclarator,
    call: CallExpression,
  ): DeviceGlobalDecl | null {
    const args = this.args(call, 1, 3, 'deviceGlobal');
    if (!args?.[0]) return null;
    const type = this.resolver.evalType(args[0]);
    if (!type) return null;
    let hostAccess: HostAccess = 'read_write';
    let deviceImageScope = false;
    let initMode: InitMode | null = null;
    let implementInCsr = false;
    const props = args[1] ? unwrap(args[1]) : null;
    if (call.arguments.length > 1) {
      if (props?.type !== 'ObjectExpression') {
        this.reporter.error(props ?? call.arguments[1]!, msg.propertiesNotObject());
        return null;
      }
      for (const p of props.properties) {
        const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
        const value = p.type === 'Property' ? this.resolver.evalConst(p.value) : null;
        const bad = (message: Message) => {
          this.reporter.error(p, message);
          return null;
        };
        if (p.type !== 'Property' || key === null) return bad(msg.propertyEntry());
        switch (key) {
          case 'hostAccess':
            if (
              value?.kind !== 'string' ||
              !['read', 'write', 'read_write', 'none'].includes(value.value)
            ) {
              return bad(msg.hostAccessValue());
            }
            hostAccess = value.value as HostAccess;
            break;
          case 'initMode':
            if (value?.kind !== 'string' || !['reprogram', 'reset'].includes(value.value)) {
              return bad(msg.initModeValue());
            }
            initMode = value.value as InitMode;
            break;
          case 'deviceImageScope':
          case 'implementInCsr':
            if (value?.kind !== 'bool') return bad(msg.propertyNotBool(key));
            if (key === 'deviceImageScope') deviceImageScope = value.value;
            else implementInCsr = value.value;
            break;
          default:
            return bad(msg.unknownProperty(key));
        }
      }
    }
    let initialValue: JsonValue = null;
    if (call.arguments.length > 2) {
      const node = args[2];
      const folded = node ? this.resolver.evalConst(node) : null;
      if (!node || !folded) {
        this.reporter.error(node ?? call.arguments[2]!, msg.initialValueNotConstant(name));
        return null;
      }
      const checked = checkDefault(folded, type, { complete: false });
      if (!checked.ok) {
        this.reporter.error(node, msg.initialValueDoesNotFit(name, checked));
        return null;
      }
      initialValue = checked.json;
    }
    return {
      name,
      type,
      hostAccess,
      deviceImageScope,
      initMode,
      implementInCsr,
      initialValue,
      span: this.span(decl),
    };
  }

  kernel(name: string, decl: VariableDeclarator, call: CallExpression): KernelDecl | null {
    const args = this.args(call, 2, 2, 'kernel');
    if (!args?.[0] || !args[1]) return null;
    const spec = unwrap(args[0]);
    if (spec.type !== 'ObjectExpression') {
      this.reporter.error(spec, msg.kernelSpecNotObject());
      return null;
    }
    const entries = new Map<string, { node: Node; value: Expression }>();
    const keys = [
      'range',
      'ndRange',
      'workgroupSize',
      'args',
      'local',
      'requiredLimits',
      'subGroupSize',
    ];
    for (const p of spec.properties) {
      const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
      if (p.type !== 'Property' || key === null || !keys.includes(key)) {
        this.reporter.error(p, msg.kernelSpecEntry(key === null ? undefined : nearest(key, keys)));
        return null;
      }
      entries.set(key, { node: p, value: p.value });
    }
    const limitsEntry = entries.get('requiredLimits');
    const requiredLimits = limitsEntry ? this.requiredLimits(limitsEntry.value) : undefined;
    if (requiredLimits === null) return null;
    const range = this.kernelRange(entries, spec);
    const sizeEntry = entries.get('subGroupSize');
    const subGroupSize = sizeEntry ? this.subGroupSize(sizeEntry, range) : undefined;
    if (subGroupSize === null) return null;
    const params = this.kernelParams(entries.get('args'), spec);
    const workgroupArrays = this.workgroupArrays(entries.get('local'), range?.kind === 'nd');
    if (!range || !params || !workgroupArrays) return null;
    const fn = unwrap(args[1]);
    if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') {
      this.reporter.error(fn, msg.kernelBodyNotFunction());
      return null;
    }
    if (fn.async || (fn.type === 'FunctionExpression' && fn.generator)) {
      this.reporter.error(fn, msg.asyncKernel());
      return null;
    }
    const scopes = new Scopes();
    const lowering = createLowering(this.resolver, this.reporter, scopes, {
      kernel: { dimensions: range.dimensions, nd: range.kind === 'nd' },
      accessModes: new Map(
        params.flatMap((p) => (p.kind === 'accessor' ? [[p.name, p.access]] : [])),
      ),
    });
    const roles = ['item', 'handler', 'args', 'local'] as const;
    if (fn.params.length > (range.kind === 'nd' ? 4 : 3)) {
      this.reporter.error(
        fn.params[fn.params.length - 1]!,
        msg.kernelBodyParameters(range.kind === 'nd'),
      );
      return null;
    }
    for (const [i, param] of fn.params.entries()) {
      const role = roles[i]!;
      if (!this.bindKernelParam(role, param, scopes, params, workgroupArrays)) return null;
    }
    // Each reduction's accumulators (a span's, one per value) are locals of the lowered kernel:
    // reported at the reduction that takes them past WGSL's function memory.
    let accumulators = 0;
    for (const p of params) {
      if (p.kind !== 'reduction') continue;
      accumulators += sizeOf(p.element) * (p.extent ?? 1);
      if (accumulators > WGSL_LIMITS.functionMemory) {
        this.reporter.error(
          p.span,
          msg.reductionMemory(name, accumulators, WGSL_LIMITS.functionMemory),
        );
        return null;
      }
    }
    const before = this.reporter.errorCount;
    const body = lowerBody(lowering, fn.body as Expression);
    if (
      this.reporter.errorCount > before ||
      !this.fitsFunctionMemory(body, 'kernel', name, accumulators)
    ) {
      return null;
    }
    return {
      name,
      range,
      params,
      workgroupArrays,
      body,
      span: this.span(decl),
      ...(requiredLimits ? { requiredLimits } : {}),
      ...(subGroupSize ? { subGroupSize } : {}),
    };
  }

  /**
   * `subGroupSize: 32`: a power of two from 1 to 128 (WGSL's range), in an nd-range kernel whose
   * work-group's last dimension, when a literal, it divides.
   */
  private subGroupSize(
    entry: { node: Node; value: Expression },
    range: KernelRange | null,
  ): number | null {
    const c = this.resolver.evalConst(entry.value);
    const n = c?.kind === 'number' && !c.float ? c.value : Number.NaN;
    if (!(Number.isInteger(n) && n >= 1 && n <= 128 && (n & (n - 1)) === 0)) {
      this.reporter.error(entry.value, msg.subGroupSizeValue());
      return null;
    }
    if (range?.kind !== 'nd') {
      this.reporter.error(entry.node, msg.groupsNeedNdRange('subGroupSize'));
      return null;
    }
    const last = range.workgroupSize[range.dimensions - 1];
    if (last?.op === 'literal' && typeof last.value === 'number' && last.value % n !== 0) {
      this.reporter.error(entry.value, msg.subGroupSizeDivides(n, last.value));
      return null;
    }
    return n;
  }

  /** `requiredLimits: { maxComputeWorkgroupStorageSize: 32768 }`: WebGPU limit names, integer constants. */
  private requiredLimits(node: Expression): RequiredLimits | null {
    const object = unwrap(node);
    if (object.type !== 'ObjectExpression') {
      this.reporter.error(object, msg.requiredLimitsNotObject());
      return null;
    }
    const limits: Partial<Record<KernelLimit, number>> = {};
    for (const p of object.properties) {
      const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
      if (p.type !== 'Property' || key === null || !(KERNEL_LIMITS as string[]).includes(key)) {
        this.reporter.error(
          p,
          msg.unknownRequiredLimit(key, key === null ? undefined : nearest(key, KERNEL_LIMITS)),
        );
        return null;
      }
      const value = this.resolver.evalConst(p.value);
      if (
        value?.kind !== 'number' ||
        value.float ||
        !Number.isInteger(value.value) ||
        value.value < 1 ||
        value.value > 2 ** 32 - 1
      ) {
        this.reporter.error(p.value, msg.requiredLimitValue(key));
        return null;
      }
      limits[key as KernelLimit] = value.value;
    }
    return limits;
  }

  private bindKernelParam(
    role: 'item' | 'handler' | 'args' | 'local',
    node: ParamPattern,
    scopes: Scopes,
    params: readonly KernelParam[],
    arrays: readonly WorkgroupArrayDecl[],
  ): boolean {
    if (node.type === 'Identifier') {
      scopes.declare(
        node.name,
        role === 'args'
          ? {
              kind: 'members',
              of: 'argument',
              members: new Map(params.map((param) => [param.name, { kind: 'kernelArg', param }])),
            }
          : role === 'local'
            ? {
                kind: 'members',
                of: 'workgroup array',
                members: new Map(
                  arrays.map((decl) => [decl.name, { kind: 'workgroupArray', decl }]),
                ),
              }
            : { kind: role },
      );
      return true;
    }
    if ((role === 'args' || role === 'local') && node.type === 'ObjectPattern') {
      for (const prop of node.properties) {
        const key = prop.type === 'Property' ? propertyName(prop.key, prop.computed) : null;
        if (prop.type !== 'Property' || key === null || prop.value.type !== 'Identifier') {
          this.reporter.error(prop, msg.kernelArgumentPattern());
          return false;
        }
        if (role === 'args') {
          const p = params.find((q) => q.name === key);
          if (!p) {
            this.reporter.error(prop, msg.noKernelArgument(key));
            return false;
          }
          scopes.declare(prop.value.name, { kind: 'kernelArg', param: p });
        } else {
          const a = arrays.find((q) => q.name === key);
          if (!a) {
            this.reporter.error(prop, msg.noWorkgroupArray(key));
            return false;
          }
          scopes.declare(prop.value.name, { kind: 'workgroupArray', decl: a });
        }
      }
      return true;
    }
    this.reporter.error(node, msg.kernelParameterPattern(role));
    return false;
  }

  private kernelRange(
    entries: Map<string, { node: Node; value: Expression }>,
    spec: Node,
  ): KernelRange | null {
    const range = entries.get('range');
    const nd = entries.get('ndRange');
    if ((range ? 1 : 0) + (nd ? 1 : 0) !== 1) {
      this.reporter.error(spec, msg.rangeOrNdRange());
      return null;
    }
    const entry = (range ?? nd)!;
    const d = this.resolver.evalConst(entry.value);
    if (d?.kind !== 'number' || ![1, 2, 3].includes(d.value)) {
      this.reporter.error(entry.value, msg.dimensions());
      return null;
    }
    const dimensions = d.value as 1 | 2 | 3;
    const wg = entries.get('workgroupSize');
    if (range) {
      if (wg) {
        this.reporter.error(wg.node, msg.workgroupSizeNeedsNdRange());
        return null;
      }
      return { kind: 'basic', dimensions };
    }
    const list = wg ? unwrap(wg.value) : null;
    if (list?.type !== 'ArrayExpression' || list.elements.length !== dimensions) {
      this.reporter.error(list ?? spec, msg.workgroupSizeList(dimensions));
      return null;
    }
    const sizes: Expr[] = [];
    for (const el of list.elements) {
      const s = argExpr(el as Arg) ? this.sizeExpr(el as Expression, 'workgroupSize') : null;
      if (!s) return null;
      sizes.push(s);
    }
    return { kind: 'nd', dimensions, workgroupSize: sizes };
  }

  /** A positive integer constant, or an integer specialization constant (converted to u32). */
  private sizeExpr(node: Expression, size: msg.Size): Expr | null {
    const span = this.span(node);
    const c = this.resolver.evalConst(node);
    if (c) {
      if (
        c.kind !== 'number' ||
        c.float ||
        !Number.isInteger(c.value) ||
        c.value < 1 ||
        c.value > 2 ** 32 - 1
      ) {
        this.reporter.error(node, msg.sizeNotU32(size, c));
        return null;
      }
      return { op: 'literal', value: c.value, type: U32, span };
    }
    const entity = this.resolver.entityOf(node);
    if (
      entity?.kind === 'specConstant' &&
      entity.type.kind === 'scalar' &&
      isInteger(entity.type.scalar)
    ) {
      const sc: Expr = { op: 'specConstant', ref: entity.ref, type: entity.type, span };
      return entity.type.scalar === 'u32' ? sc : { op: 'construct', args: [sc], type: U32, span };
    }
    this.reporter.error(
      node,
      msg.sizeNotConstant(size, entity?.kind === 'opaque' ? entity.why : undefined),
    );
    return null;
  }

  private kernelParams(
    entry: { node: Node; value: Expression } | undefined,
    spec: Node,
  ): KernelParam[] | null {
    const properties = entry ? this.argSpec(entry.value, new Set()) : null;
    if (!entry) {
      this.reporter.error(spec, msg.missingArgs());
    }
    if (!properties) return null;
    const params: KernelParam[] = [];
    let ok = true;
    for (const p of properties) {
      const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
      if (p.type !== 'Property' || key === null || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
        this.reporter.error(p, msg.argumentName());
        ok = false;
        continue;
      }
      const span = this.span(p);
      const value = unwrap(p.value);
      if (value.type === 'CallExpression' && this.resolver.dslName(value.callee) === 'accessor') {
        const [el, mode] = [argExpr(value.arguments[0]), argExpr(value.arguments[1])];
        const element = el ? this.resolver.evalType(el) : null;
        const access = mode ? this.resolver.evalConst(mode) : null;
        if (!element) {
          ok = false;
          continue;
        }
        if (access?.kind !== 'string' || !['read', 'write', 'read_write'].includes(access.value)) {
          this.reporter.error(mode ?? value, msg.accessMode());
          ok = false;
          continue;
        }
        if (!hostShareable(element)) {
          this.reporter.error(el!, msg.boolAccessorElement(element));
          ok = false;
          continue;
        }
        if (containsAtomic(element) && access.value === 'read') {
          this.reporter.error(mode!, msg.atomicReadAccessor());
          ok = false;
          continue;
        }
        params.push({
          kind: 'accessor',
          name: key,
          element,
          access: access.value as AccessMode,
          span,
        });
        continue;
      }
      const texture =
        value.type === 'CallExpression' ? this.textureParam(key, value, span) : undefined;
      if (texture !== undefined) {
        if (texture) params.push(texture);
        else ok = false;
        continue;
      }
      if (value.type === 'CallExpression' && this.resolver.dslName(value.callee) === 'reduction') {
        const param = this.reductionParam(key, value, span);
        if (param) params.push(param);
        else ok = false;
        continue;
      }
      const type = this.resolver.evalType(value);
      if (!type) {
        ok = false;
        continue;
      }
      if (containsAtomic(type)) {
        this.reporter.error(value, msg.atomicValueArgument());
        ok = false;
        continue;
      }
      params.push({ kind: 'value', name: key, type, span });
    }
    return ok ? params : null;
  }

  /**
   * `texture2d(f32)`, `storageTexture2d('rgba8unorm', 'write')`, `sampler()`, `externalTexture()`:
   * the parameter, null when reported, undefined when the call declares no texture.
   */
  private textureParam(
    name: string,
    call: Expression & { type: 'CallExpression' },
    span: Span,
  ): KernelParam | null | undefined {
    const callee = this.resolver.dslName(call.callee);
    if (callee === null) return undefined;
    const args = call.arguments.map((a) => argExpr(a));
    if (callee === 'sampler' || callee === 'externalTexture') {
      if (args.length !== 0) {
        this.reporter.error(call, msg.textureDeclarationArguments(`${callee}()`, 'no arguments'));
        return null;
      }
      return { kind: 'texture', name, texture: { kind: callee }, span };
    }
    const sampled = SAMPLED_TEXTURES.get(callee);
    if (sampled) {
      const type = args.length === 1 && args[0] ? this.resolver.evalType(args[0]) : null;
      if (args.length !== 1 || !args[0]) {
        this.reporter.error(
          call,
          msg.textureDeclarationArguments(callee, 'one sample type: f32, i32 or u32'),
        );
        return null;
      }
      if (!type) return null;
      if (type.kind !== 'scalar' || !['f32', 'i32', 'u32'].includes(type.scalar)) {
        this.reporter.error(args[0], msg.textureSampleType());
        return null;
      }
      const sampleType = type.scalar as SampleScalar;
      return {
        kind: 'texture',
        name,
        texture: { kind: 'texture', dimension: sampled, sampleType },
        span,
      };
    }
    const storage = STORAGE_TEXTURES.get(callee);
    if (!storage) return undefined;
    if (args.length !== 2 || !args[0] || !args[1]) {
      this.reporter.error(
        call,
        msg.textureDeclarationArguments(callee, 'a format and an access mode'),
      );
      return null;
    }
    const format = this.resolver.evalConst(args[0]);
    const formats = Object.keys(STORAGE_FORMATS);
    if (format?.kind !== 'string' || !Object.hasOwn(STORAGE_FORMATS, format.value)) {
      this.reporter.error(args[0], msg.storageFormat(this.reporter.source.slice(args[0]), formats));
      return null;
    }
    const access = this.resolver.evalConst(args[1]);
    if (access?.kind !== 'string' || !['read', 'write', 'read_write'].includes(access.value)) {
      this.reporter.error(args[1], msg.storageAccess());
      return null;
    }
    const f = format.value as StorageFormat;
    if (access.value === 'read_write' && !READ_WRITE_FORMATS.includes(f)) {
      this.reporter.error(args[1], msg.readWriteFormat(f, READ_WRITE_FORMATS));
      return null;
    }
    return {
      kind: 'texture',
      name,
      texture: {
        kind: 'storageTexture',
        dimension: storage,
        format: f,
        access: access.value as AccessMode,
      },
      span,
    };
  }

  /**
   * `reduction(T, op)`: i32, u32 or f32 scalars and vectors, with an operator that combines them;
   * `reduction(T, identity, op)`, SYCL's explicit identity, where `op` may also be a device
   * function of two `T`s returning a `T` (any type a buffer holds).
   */
  private reductionParam(
    name: string,
    call: Expression & { type: 'CallExpression' },
    span: Span,
  ): KernelParam | null {
    const args = call.arguments.map(argExpr);
    if (args.some((a) => !a) || args.length < 2 || args.length > 3) {
      this.reporter.error(call, msg.reductionArguments());
      return null;
    }
    const [el, ...rest] = args as Expression[];
    const op = rest.at(-1)!;
    const spanned = this.spanOf(el!);
    if (spanned === null) return null;
    const extent = spanned === undefined ? null : spanned.extent;
    const element = spanned === undefined ? this.resolver.evalType(el!) : spanned.element;
    if (!element) return null;
    let identity: JsonValue = null;
    if (rest.length === 2) {
      const folded = this.resolver.evalConst(rest[0]!);
      if (!folded) {
        this.reporter.error(rest[0]!, msg.reductionIdentityNotConstant(name));
        return null;
      }
      const checked = checkDefault(folded, element, { infinite: true });
      if (!checked.ok) {
        this.reporter.error(rest[0]!, msg.reductionIdentityDoesNotFit(name, checked));
        return null;
      }
      identity = checked.json;
    }
    const operator = this.reductionOperator(op, el!, element, identity);
    return operator && { kind: 'reduction', name, element, extent, operator, span };
  }

  /** What combines a reduction's values of `element`: a device function, or a function object. */
  private reductionOperator(
    op: Expression,
    el: Expression,
    element: DataType,
    identity: JsonValue,
  ): ReductionOperator | null {
    const text = this.reporter.source.slice(op);
    const entity = this.resolver.entityOf(op);
    if (entity?.kind === 'function') {
      if (identity === null) {
        this.reporter.error(op, msg.combinerNeedsIdentity(text));
        return null;
      }
      const { params, returns } = entity.signature;
      const takes =
        params.length === 2 && params.every((p) => p !== 'handler' && sameType(p, element));
      if (!takes || !returns || !sameType(returns, element)) {
        this.reporter.error(op, msg.combinerSignature(text, element, entity.signature));
        return null;
      }
      if (!hostShareable(element) || containsAtomic(element)) {
        this.reporter.error(el, msg.combinerType(element));
        return null;
      }
      return { kind: 'function', fn: entity.ref, identity };
    }
    const name = this.resolver.dslName(op);
    if (name === null || !GROUP_OPERATOR_NAMES.has(name)) {
      const reason = entity?.kind === 'opaque' ? entity.why : undefined;
      this.reporter.error(op, msg.notAReductionOperator(text, reason));
      return null;
    }
    const scalar = scalarOf(element);
    const numeric =
      (element.kind === 'scalar' || element.kind === 'vector') &&
      (scalar === 'i32' || scalar === 'u32' || scalar === 'f32');
    if (!numeric || !operatorCombines(name as GroupOperatorName, element)) {
      this.reporter.error(el, msg.reductionType(name, element));
      return null;
    }
    return { kind: 'known', name: name as GroupOperatorName, identity };
  }

  /**
   * `span(T, n)` as a reduction's type: its element and extent (an integer constant from 1 to
   * MAX_SPAN_EXTENT); undefined when `node` is no span, null when it is a bad one (reported).
   */
  private spanOf(node: Expression): { element: DataType; extent: number } | null | undefined {
    const call = unwrap(node);
    if (call.type !== 'CallExpression' || this.resolver.dslName(call.callee) !== 'span') {
      return undefined;
    }
    const [el, n] = [argExpr(call.arguments[0]), argExpr(call.arguments[1])];
    if (!el || !n || call.arguments.length !== 2) {
      this.reporter.error(call, msg.spanArguments());
      return null;
    }
    const element = this.resolver.evalType(el);
    if (!element) return null;
    const extent = this.resolver.evalConst(n);
    if (
      extent?.kind !== 'number' ||
      !Number.isInteger(extent.value) ||
      extent.value < 1 ||
      extent.value > MAX_SPAN_EXTENT
    ) {
      this.reporter.error(n, msg.spanExtent(MAX_SPAN_EXTENT));
      return null;
    }
    return { element, extent: extent.value };
  }

  /**
   * The entries of an `args` spec: an object literal, or a top-level `const` of one, whose
   * spreads (`{ ...common, n: u32 }`) name such consts too. A later entry replaces an earlier one
   * of the same name in its place, as in JavaScript.
   */
  private argSpec(node: Expression, following: Set<string>): ObjectPropertyKind[] | null {
    const value = unwrap(node);
    if (value.type === 'Identifier') {
      const binding = this.resolver.top.bindings.get(value.name);
      if (binding?.kind !== 'const' || following.has(value.name)) {
        this.reporter.error(
          value,
          binding?.kind === 'const'
            ? msg.argSpecCycle(value.name)
            : msg.argSpecNotConst(value.name),
        );
        return null;
      }
      following.add(value.name);
      const entries = this.argSpec(binding.init, following);
      following.delete(value.name);
      return entries;
    }
    if (value.type !== 'ObjectExpression') {
      this.reporter.error(value, msg.argsNotObject());
      return null;
    }
    const out: ObjectPropertyKind[] = [];
    const place = (p: ObjectPropertyKind) => {
      const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
      const at =
        key === null
          ? -1
          : out.findIndex((q) => q.type === 'Property' && propertyName(q.key, q.computed) === key);
      if (at >= 0) out[at] = p;
      else out.push(p);
    };
    for (const p of value.properties) {
      if (p.type !== 'SpreadElement') {
        place(p);
        continue;
      }
      const spread = this.argSpec(p.argument, following);
      if (!spread) return null;
      for (const q of spread) place(q);
    }
    return out;
  }

  private workgroupArrays(
    entry: { node: Node; value: Expression } | undefined,
    nd: boolean,
  ): WorkgroupArrayDecl[] | null {
    if (!entry) return [];
    if (!nd) {
      this.reporter.error(entry.node, msg.workgroupArraysNeedNdRange());
      return null;
    }
    const obj = unwrap(entry.value);
    if (obj.type !== 'ObjectExpression') {
      this.reporter.error(obj, msg.localNotObject());
      return null;
    }
    const out: WorkgroupArrayDecl[] = [];
    for (const p of obj.properties) {
      const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
      const value = p.type === 'Property' ? unwrap(p.value) : null;
      if (
        p.type !== 'Property' ||
        key === null ||
        !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ||
        value?.type !== 'CallExpression' ||
        this.resolver.dslName(value.callee) !== 'workgroupArray' ||
        value.arguments.length < 2
      ) {
        this.reporter.error(p, msg.workgroupArrayEntry());
        return null;
      }
      const el = argExpr(value.arguments[0]);
      const element = el ? this.resolver.evalType(el) : null;
      if (!element) return null;
      let length: Expr | null = null;
      for (const f of value.arguments.slice(1)) {
        const factor = argExpr(f) ? this.sizeExpr(f as Expression, 'lengthFactor') : null;
        length = factor && (length ? this.multiply(length, factor, p) : factor);
        if (!length) return null;
      }
      out.push({ name: key, element, length: length!, span: this.span(p) });
    }
    return out;
  }

  /** The product of two length factors; null (reported) when it does not fit in u32. */
  private multiply(a: Expr, b: Expr, at: Node): Expr | null {
    if (a.op === 'literal' && b.op === 'literal') {
      const value = Number(a.value) * Number(b.value);
      if (!fitsScalar('u32', value)) {
        this.reporter.error(at, msg.workgroupArrayLength(Number(a.value), Number(b.value), value));
        return null;
      }
      return { ...a, value, span: { ...a.span, end: b.span.end } };
    }
    return {
      op: 'binary',
      operator: '*',
      left: a,
      right: b,
      type: U32,
      span: { ...a.span, end: b.span.end },
    };
  }

  deviceFunction(
    name: string,
    decl: VariableDeclarator,
    call: CallExpression,
  ): FunctionDecl | null {
    const args = this.args(call, 2, 2, 'deviceFunction');
    if (!args?.[0] || !args[1]) return null;
    const signature = this.resolver.functionSignature(args[0]);
    if (!signature) return null;
    const fn = unwrap(args[1]);
    if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') {
      this.reporter.error(fn, msg.functionBodyNotFunction());
      return null;
    }
    if (signature.returns && containsAtomic(signature.returns)) {
      this.reporter.error(args[0], msg.atomicReturn());
      return null;
    }
    if (fn.params.length !== signature.params.length) {
      this.reporter.error(fn, msg.parameterCount(signature.params.length, fn.params.length));
      return null;
    }
    const scopes = new Scopes();
    const params: FunctionParam[] = [];
    for (const [i, p] of fn.params.entries()) {
      const type = signature.params[i]!;
      if (p.type !== 'Identifier') {
        this.reporter.error(p, msg.functionParameterPattern());
        return null;
      }
      if (type === 'handler') {
        scopes.declare(p.name, { kind: 'handler' });
        continue;
      }
      if (containsAtomic(type)) {
        this.reporter.error(p, msg.atomicParameter());
        return null;
      }
      scopes.declare(p.name, {
        kind: 'local',
        name: p.name,
        type,
        mutable: false,
        parameter: true,
      });
      params.push({ name: p.name, type, span: this.span(p) });
    }
    if (params.length > WGSL_LIMITS.functionParams) {
      this.reporter.error(
        args[0],
        msg.functionParams(name, params.length, WGSL_LIMITS.functionParams),
      );
      return null;
    }
    const template = fn.body ? wgslTemplate(fn.body, this.resolver) : null;
    if (template) {
      const parts = this.wgslParts(template, scopes);
      return parts
        ? {
            name,
            params,
            returnType: signature.returns,
            body: { kind: 'wgsl', parts },
            span: this.span(decl),
          }
        : null;
    }
    const lowering = createLowering(this.resolver, this.reporter, scopes, {
      kernel: null,
      returnType: signature.returns,
    });
    const before = this.reporter.errorCount;
    const block = lowerBody(lowering, fn.body as Expression);
    this.callGraph.set(name, lowering.calls);
    if (this.reporter.errorCount > before) return null;
    if (!this.fitsFunctionMemory(block, 'device function', name)) return null;
    if (signature.returns && !alwaysReturns(block)) {
      this.reporter.error(fn.body, msg.missingReturn(name, signature.returns));
      return null;
    }
    return {
      name,
      params,
      returnType: signature.returns,
      body: { kind: 'ir', block },
      span: this.span(decl),
    };
  }

  /** Reports locals past WGSL's function memory, at the one that passes it. */
  private fitsFunctionMemory(
    block: Block,
    kind: 'kernel' | 'device function',
    name: string,
    reserved = 0,
  ): boolean {
    const { bytes, crossing } = functionMemory(block, reserved);
    if (!crossing) return true;
    this.reporter.error(
      crossing.span,
      msg.functionMemory({ kind, name }, bytes, crossing, WGSL_LIMITS.functionMemory),
    );
    return false;
  }

  private wgslParts(template: TemplateNode, scopes: Scopes): WgslPart[] | null {
    const problems = checkRawWgsl(template);
    for (const p of problems) this.reporter.error(p, p.message);
    if (problems.length > 0) return null;
    const parts: WgslPart[] = [];
    for (const [i, quasi] of template.quasis.entries()) {
      const text = quasi.value.cooked;
      if (text === null) {
        this.reporter.error(quasi, msg.wgslEscape());
        return null;
      }
      // A template element's span starts at the delimiter before its text.
      if (text)
        parts.push({
          kind: 'text',
          text,
          span: this.span({ start: quasi.start + 1, end: quasi.end }),
        });
      const e = template.expressions[i];
      if (!e) continue;
      const node = unwrap(e);
      const local = node.type === 'Identifier' ? scopes.lookup(node.name) : undefined;
      if (local?.kind === 'local') {
        parts.push({ kind: 'param', name: local.name, span: this.span(node) });
        continue;
      }
      const entity = local ? undefined : this.resolver.entityOf(node);
      if (entity?.kind === 'specConstant' || entity?.kind === 'deviceGlobal') {
        parts.push({ kind: 'ref', ref: entity.ref, span: this.span(node) });
        continue;
      }
      this.reporter.error(
        node,
        msg.wgslInterpolation(
          this.reporter.source.slice(node),
          entity?.kind === 'opaque' ? entity.why : undefined,
        ),
      );
      return null;
    }
    return parts;
  }
}

type TemplateNode = Extract<Expression, { type: 'TemplateLiteral' }>;

/** The `wgsl`...`` template a function body consists of, if it is one. */
function wgslTemplate(body: FunctionBody | Expression, resolver: Resolver): TemplateNode | null {
  let node: Expression | null;
  if (body.type === 'BlockStatement') {
    const only = body.body.length === 1 ? body.body[0] : undefined;
    node = only?.type === 'ReturnStatement' && only.argument ? unwrap(only.argument) : null;
  } else {
    node = unwrap(body);
  }
  if (node?.type !== 'TaggedTemplateExpression') return null;
  return resolver.dslName(node.tag) === 'wgsl' ? node.quasi : null;
}

/** Reports calls between this module's device functions that form a cycle (WGSL forbids recursion). */
export function reportRecursion(graph: ReadonlyMap<string, CallSite[]>, resolver: Resolver): void {
  const calls = new Map(
    [...graph].map(([name, sites]) => [name, sites.map((s) => ({ callee: s.name, site: s.node }))]),
  );
  for (const { call } of recursiveCalls(calls)) {
    resolver.reporter.error(call.site, msg.recursiveCall(call.callee));
  }
}

const SAMPLED_TEXTURES: ReadonlyMap<string, TextureDimension> = new Map([
  ['texture1d', '1d'],
  ['texture2d', '2d'],
  ['texture2dArray', '2d-array'],
  ['texture3d', '3d'],
  ['textureCube', 'cube'],
  ['textureCubeArray', 'cube-array'],
]);

const STORAGE_TEXTURES: ReadonlyMap<string, StorageDimension> = new Map([
  ['storageTexture1d', '1d'],
  ['storageTexture2d', '2d'],
  ['storageTexture2dArray', '2d-array'],
  ['storageTexture3d', '3d'],
]);
