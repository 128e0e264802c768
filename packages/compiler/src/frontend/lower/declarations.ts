/** Builds the IR of each top-level declaration: specialization IDs, device globals, kernels, functions. */
import {
  type AccessMode,
  fitsScalar,
  type HostAccess,
  type InitMode,
  type JsonValue,
  KERNEL_LIMITS,
  type KernelLimit,
  type RequiredLimits,
  zeroValue,
} from '@syclts/dsl';
import type {
  CallExpression,
  FunctionBody,
  ObjectPropertyKind,
  ParamPattern,
  VariableDeclarator,
} from 'oxc-parser';
import { recursiveCalls } from '../../ir/call-graph.js';
import type { Block, Expr } from '../../ir/device-code.js';
import type {
  DeviceGlobalDecl,
  FunctionDecl,
  FunctionParam,
  KernelDecl,
  KernelParam,
  KernelRange,
  SpecConstantDecl,
  WgslPart,
  WorkgroupArrayDecl,
} from '../../ir/device-object.js';
import { functionMemory, WGSL_LIMITS } from '../../ir/wgsl-limits.js';
import { type Expression, propertyName, unwrap } from '../ast.js';
import { codes } from '../report.js';
import { describeConst } from '../resolver/constants.js';
import type { Resolver } from '../resolver/resolver.js';
import { containsAtomic, hostShareable, isInteger, typeName, U32 } from '../resolver/types.js';
import { didYouMean } from '../suggest.js';
import { type CallSite, createLowering } from './context.js';
import { checkDefault } from './defaults.js';
import { checkRawWgsl } from './raw-wgsl.js';
import { Scopes } from './scope.js';
import { alwaysReturns, lowerBody } from './statements.js';

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
    usage: string,
  ): (Expression | null)[] | null {
    if (call.arguments.length < min || call.arguments.length > max) {
      this.reporter.error(codes.badCall, call, `expected ${usage}`, `write ${usage}`);
      return null;
    }
    return call.arguments.map(argExpr);
  }

  specConstant(
    name: string,
    decl: VariableDeclarator,
    call: CallExpression,
  ): SpecConstantDecl | null {
    const args = this.args(call, 1, 2, 'specializationId(type, default?)');
    if (!args?.[0]) return null;
    const type = this.resolver.evalType(args[0]);
    if (!type) return null;
    if (containsAtomic(type)) {
      this.reporter.error(codes.notDslType, args[0], 'a specialization constant cannot be atomic');
      return null;
    }
    let defaultValue: JsonValue = zeroValue(type);
    const defaultNode = args[1];
    if (call.arguments.length > 1 && !defaultNode) {
      this.reporter.error(codes.badDefault, call.arguments[1]!, 'the default cannot be a spread');
      return null;
    }
    if (defaultNode) {
      const folded = this.resolver.evalConst(defaultNode);
      if (folded) {
        const checked = checkDefault(folded, type);
        if (!checked.ok) {
          this.reporter.error(
            codes.badDefault,
            defaultNode,
            `the default of \`${name}\` ${checked.why}`,
            'give a value of the declared type, or change the type',
          );
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
    const args = this.args(
      call,
      1,
      3,
      'deviceGlobal(type, { hostAccess, deviceImageScope, ... }?, initialValue?)',
    );
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
        this.reporter.error(
          codes.badProperties,
          props ?? call.arguments[1]!,
          'device global properties must be an object literal',
          "write { hostAccess: 'read', deviceImageScope: true }",
        );
        return null;
      }
      for (const p of props.properties) {
        const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
        const value = p.type === 'Property' ? this.resolver.evalConst(p.value) : null;
        const bad = (why: string, hint?: string) => {
          this.reporter.error(codes.badProperties, p, why, hint);
          return null;
        };
        if (p.type !== 'Property' || key === null)
          return bad('properties need plain `name: value` entries');
        switch (key) {
          case 'hostAccess':
            if (
              value?.kind !== 'string' ||
              !['read', 'write', 'read_write', 'none'].includes(value.value)
            ) {
              return bad("hostAccess is one of 'read', 'write', 'read_write', 'none'");
            }
            hostAccess = value.value as HostAccess;
            break;
          case 'initMode':
            if (value?.kind !== 'string' || !['reprogram', 'reset'].includes(value.value)) {
              return bad("initMode is 'reprogram' or 'reset'");
            }
            initMode = value.value as InitMode;
            break;
          case 'deviceImageScope':
          case 'implementInCsr':
            if (value?.kind !== 'bool') return bad(`${key} must be true or false (a constant)`);
            if (key === 'deviceImageScope') deviceImageScope = value.value;
            else implementInCsr = value.value;
            break;
          default:
            return bad(
              `unknown device global property \`${key}\``,
              'properties: hostAccess, deviceImageScope, initMode, implementInCsr',
            );
        }
      }
    }
    let initialValue: JsonValue = null;
    if (call.arguments.length > 2) {
      const node = args[2];
      const folded = node ? this.resolver.evalConst(node) : null;
      if (!node || !folded) {
        this.reporter.error(
          codes.badDefault,
          node ?? call.arguments[2]!,
          `the initial value of \`${name}\` must be a constant expression (the build folds it)`,
          'write literals, arithmetic on them, array and object literals, or top-level constants',
        );
        return null;
      }
      const checked = checkDefault(folded, type, false);
      if (!checked.ok) {
        this.reporter.error(
          codes.badDefault,
          node,
          `the initial value of \`${name}\` ${checked.why}`,
          'give a value of the declared type, or change the type',
        );
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
    const usage = 'kernel({ range: 1, args: { ... } }, (item, kh, args) => { ... })';
    const args = this.args(call, 2, 2, usage);
    if (!args?.[0] || !args[1]) return null;
    const spec = unwrap(args[0]);
    if (spec.type !== 'ObjectExpression') {
      this.reporter.error(
        codes.badKernelSpec,
        spec,
        'the kernel spec must be an object literal',
        `write ${usage}`,
      );
      return null;
    }
    const entries = new Map<string, { node: Node; value: Expression }>();
    const keys = ['range', 'ndRange', 'workgroupSize', 'args', 'local', 'requiredLimits'];
    for (const p of spec.properties) {
      const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
      if (p.type !== 'Property' || key === null || !keys.includes(key)) {
        this.reporter.error(
          codes.badKernelSpec,
          p,
          'a kernel spec has only range | ndRange, workgroupSize, args, local, requiredLimits',
          key === null ? undefined : didYouMean(key, keys),
        );
        return null;
      }
      entries.set(key, { node: p, value: p.value });
    }
    const limitsEntry = entries.get('requiredLimits');
    const requiredLimits = limitsEntry ? this.requiredLimits(limitsEntry.value) : undefined;
    if (requiredLimits === null) return null;
    const range = this.kernelRange(entries, spec);
    const params = this.kernelParams(entries.get('args'), spec);
    const workgroupArrays = this.workgroupArrays(entries.get('local'), range?.kind === 'nd');
    if (!range || !params || !workgroupArrays) return null;
    const fn = unwrap(args[1]);
    if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') {
      this.reporter.error(
        codes.badKernelSpec,
        fn,
        'the kernel body must be an arrow function',
        `write ${usage}`,
      );
      return null;
    }
    if (fn.async || (fn.type === 'FunctionExpression' && fn.generator)) {
      this.reporter.error(
        codes.unsupportedSyntax,
        fn,
        'a kernel body cannot be async or a generator',
      );
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
        codes.badKernelSpec,
        fn.params[fn.params.length - 1]!,
        `a ${range.kind === 'nd' ? 'nd-range' : 'basic'} kernel body takes at most ${range.kind === 'nd' ? 4 : 3} parameters`,
        range.kind === 'nd' ? '(item, kh, args, local)' : '(item, kh, args)',
      );
      return null;
    }
    for (const [i, param] of fn.params.entries()) {
      const role = roles[i]!;
      if (!this.bindKernelParam(role, param, scopes, params, workgroupArrays)) return null;
    }
    const before = this.reporter.errorCount;
    const body = lowerBody(lowering, fn.body as Expression);
    if (this.reporter.errorCount > before || !this.fitsFunctionMemory(body, `kernel \`${name}\``)) {
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
    };
  }

  /** `requiredLimits: { maxComputeWorkgroupStorageSize: 32768 }`: WebGPU limit names, integer constants. */
  private requiredLimits(node: Expression): RequiredLimits | null {
    const object = unwrap(node);
    if (object.type !== 'ObjectExpression') {
      this.reporter.error(
        codes.badKernelSpec,
        object,
        'requiredLimits must be an object literal of WebGPU limit names and numbers',
        'write requiredLimits: { maxComputeInvocationsPerWorkgroup: 1024 }',
      );
      return null;
    }
    const limits: Partial<Record<KernelLimit, number>> = {};
    for (const p of object.properties) {
      const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
      if (p.type !== 'Property' || key === null || !(KERNEL_LIMITS as string[]).includes(key)) {
        this.reporter.error(
          codes.badKernelSpec,
          p,
          `${key === null ? 'this entry' : `\`${key}\``} is not a limit a kernel can require; the limits are ${KERNEL_LIMITS.join(', ')}`,
          key === null ? undefined : didYouMean(key, KERNEL_LIMITS),
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
        this.reporter.error(
          codes.badKernelSpec,
          p.value,
          `requiredLimits.${key} must be a positive integer constant (a u32)`,
        );
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
          this.reporter.error(
            codes.unsupportedSyntax,
            prop,
            'destructure kernel arguments by name only: { out, n }',
          );
          return false;
        }
        if (role === 'args') {
          const p = params.find((q) => q.name === key);
          if (!p) {
            this.reporter.error(
              codes.unknownName,
              prop,
              `the kernel declares no argument \`${key}\``,
            );
            return false;
          }
          scopes.declare(prop.value.name, { kind: 'kernelArg', param: p });
        } else {
          const a = arrays.find((q) => q.name === key);
          if (!a) {
            this.reporter.error(
              codes.unknownName,
              prop,
              `the kernel declares no workgroup array \`${key}\``,
            );
            return false;
          }
          scopes.declare(prop.value.name, { kind: 'workgroupArray', decl: a });
        }
      }
      return true;
    }
    this.reporter.error(
      codes.unsupportedSyntax,
      node,
      role === 'item' || role === 'handler'
        ? `the ${role} parameter must be a plain name`
        : `the ${role} parameter must be a name or { a, b } destructuring`,
    );
    return false;
  }

  private kernelRange(
    entries: Map<string, { node: Node; value: Expression }>,
    spec: Node,
  ): KernelRange | null {
    const range = entries.get('range');
    const nd = entries.get('ndRange');
    if ((range ? 1 : 0) + (nd ? 1 : 0) !== 1) {
      this.reporter.error(
        codes.badKernelSpec,
        spec,
        'a kernel spec needs exactly one of `range` (basic) or `ndRange` (with workgroupSize)',
        'write { range: 2, args: {...} } or { ndRange: 2, workgroupSize: [8, 8], args: {...} }',
      );
      return null;
    }
    const entry = (range ?? nd)!;
    const d = this.resolver.evalConst(entry.value);
    if (d?.kind !== 'number' || ![1, 2, 3].includes(d.value)) {
      this.reporter.error(
        codes.badKernelSpec,
        entry.value,
        'the number of dimensions must be 1, 2 or 3',
      );
      return null;
    }
    const dimensions = d.value as 1 | 2 | 3;
    const wg = entries.get('workgroupSize');
    if (range) {
      if (wg) {
        this.reporter.error(
          codes.badKernelSpec,
          wg.node,
          'workgroupSize needs an nd-range kernel',
          'write ndRange instead of range',
        );
        return null;
      }
      return { kind: 'basic', dimensions };
    }
    const list = wg ? unwrap(wg.value) : null;
    if (list?.type !== 'ArrayExpression' || list.elements.length !== dimensions) {
      this.reporter.error(
        codes.badKernelSpec,
        list ?? spec,
        `an nd-range kernel needs workgroupSize: a list of ${dimensions} sizes`,
        `write workgroupSize: [${Array.from({ length: dimensions }, () => '8').join(', ')}]`,
      );
      return null;
    }
    const sizes: Expr[] = [];
    for (const el of list.elements) {
      const s = argExpr(el as Arg) ? this.sizeExpr(el as Expression, 'a workgroup size') : null;
      if (!s) return null;
      sizes.push(s);
    }
    return { kind: 'nd', dimensions, workgroupSize: sizes };
  }

  /** A positive integer constant, or an integer specialization constant (converted to u32). */
  private sizeExpr(node: Expression, what: string): Expr | null {
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
        this.reporter.error(
          codes.badKernelSpec,
          node,
          `${what} must be a positive integer that fits in u32, not ${describeConst(c)}`,
        );
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
      entity?.kind === 'opaque' ? codes.unresolvedImport : codes.badKernelSpec,
      node,
      `${what} must be an integer literal or an i32/u32 specializationId${entity?.kind === 'opaque' ? `: ${entity.why}` : ''}`,
    );
    return null;
  }

  private kernelParams(
    entry: { node: Node; value: Expression } | undefined,
    spec: Node,
  ): KernelParam[] | null {
    const properties = entry ? this.argSpec(entry.value, new Set()) : null;
    if (!entry) {
      this.reporter.error(
        codes.badKernelSpec,
        spec,
        'a kernel spec needs `args`: an object literal of argument types',
        "write args: { out: accessor(f32, 'write'), n: u32 }",
      );
    }
    if (!properties) return null;
    const params: KernelParam[] = [];
    let ok = true;
    for (const p of properties) {
      const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
      if (p.type !== 'Property' || key === null || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
        this.reporter.error(
          codes.badKernelSpec,
          p,
          'kernel arguments need plain names (letters, digits, underscores)',
        );
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
          this.reporter.error(
            codes.badKernelSpec,
            mode ?? value,
            "an accessor's access mode is 'read', 'write' or 'read_write'",
          );
          ok = false;
          continue;
        }
        if (!hostShareable(element)) {
          this.reporter.error(
            codes.notDslType,
            el!,
            `accessor elements must be host-shareable, and ${typeName(element)} holds a bool`,
            'store the flag as u32 (0 or 1)',
          );
          ok = false;
          continue;
        }
        if (containsAtomic(element) && access.value === 'read') {
          this.reporter.error(codes.badAtomic, mode!, 'atomic elements need a read_write accessor');
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
      const type = this.resolver.evalType(value);
      if (!type) {
        ok = false;
        continue;
      }
      if (containsAtomic(type)) {
        this.reporter.error(
          codes.notDslType,
          value,
          'a value argument cannot be atomic',
          "pass an accessor(atomic(u32), 'read_write')",
        );
        ok = false;
        continue;
      }
      params.push({ kind: 'value', name: key, type, span });
    }
    return ok ? params : null;
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
          codes.badKernelSpec,
          value,
          binding?.kind === 'const'
            ? `\`${value.name}\` is defined in terms of itself`
            : `\`${value.name}\` must be a top-level const of this module holding an object literal of argument types`,
          "declare const common = { out: accessor(f32, 'write') } in this module",
        );
        return null;
      }
      following.add(value.name);
      const entries = this.argSpec(binding.init, following);
      following.delete(value.name);
      return entries;
    }
    if (value.type !== 'ObjectExpression') {
      this.reporter.error(
        codes.badKernelSpec,
        value,
        '`args` must be an object literal of argument types, or a top-level const holding one',
        "write args: { out: accessor(f32, 'write'), n: u32 }",
      );
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
      this.reporter.error(
        codes.badKernelSpec,
        entry.node,
        'workgroup arrays need an nd-range kernel',
        'write ndRange and workgroupSize',
      );
      return null;
    }
    const obj = unwrap(entry.value);
    if (obj.type !== 'ObjectExpression') {
      this.reporter.error(
        codes.badKernelSpec,
        obj,
        '`local` must be an object literal of workgroupArray(...)',
      );
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
        this.reporter.error(
          codes.badKernelSpec,
          p,
          'each workgroup array is `name: workgroupArray(type, ...lengthFactors)`',
          'write tile: workgroupArray(f32, blockSize, blockSize)',
        );
        return null;
      }
      const el = argExpr(value.arguments[0]);
      const element = el ? this.resolver.evalType(el) : null;
      if (!element) return null;
      let length: Expr | null = null;
      for (const f of value.arguments.slice(1)) {
        const factor = argExpr(f)
          ? this.sizeExpr(f as Expression, 'a workgroup array length factor')
          : null;
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
        this.reporter.error(
          codes.badKernelSpec,
          at,
          `the workgroup array's length ${a.value} × ${b.value} = ${value} does not fit in u32`,
        );
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
    const usage = 'deviceFunction({ args: [f32], returns: f32 }, (x) => ...)';
    const args = this.args(call, 2, 2, usage);
    if (!args?.[0] || !args[1]) return null;
    const signature = this.resolver.functionSignature(args[0]);
    if (!signature) return null;
    const fn = unwrap(args[1]);
    if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') {
      this.reporter.error(
        codes.badFunctionSpec,
        fn,
        'the body of a deviceFunction must be an arrow function',
        `write ${usage}`,
      );
      return null;
    }
    if (signature.returns && containsAtomic(signature.returns)) {
      this.reporter.error(codes.notDslType, args[0], 'a function cannot return an atomic');
      return null;
    }
    if (fn.params.length !== signature.params.length) {
      this.reporter.error(
        codes.badFunctionSpec,
        fn,
        `args lists ${signature.params.length} type(s) but the function has ${fn.params.length} parameter(s)`,
      );
      return null;
    }
    const scopes = new Scopes();
    const params: FunctionParam[] = [];
    for (const [i, p] of fn.params.entries()) {
      const type = signature.params[i]!;
      if (p.type !== 'Identifier') {
        this.reporter.error(
          codes.unsupportedSyntax,
          p,
          'device function parameters must be plain names',
        );
        return null;
      }
      if (type === 'handler') {
        scopes.declare(p.name, { kind: 'handler' });
        continue;
      }
      if (containsAtomic(type)) {
        this.reporter.error(codes.notDslType, p, 'a parameter cannot be atomic');
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
        codes.functionParams,
        args[0],
        `\`${name}\` takes ${params.length} parameters; a WGSL function takes at most ${WGSL_LIMITS.functionParams}`,
        'pass related values together as a struct',
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
    if (!this.fitsFunctionMemory(block, `device function \`${name}\``)) return null;
    if (signature.returns && !alwaysReturns(block)) {
      this.reporter.error(
        codes.badControlFlow,
        fn.body,
        `\`${name}\` must return ${typeName(signature.returns)} on every path`,
        'end the function with a return statement',
      );
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
  private fitsFunctionMemory(block: Block, what: string): boolean {
    const { bytes, crossing } = functionMemory(block);
    if (!crossing) return true;
    this.reporter.error(
      codes.functionMemory,
      crossing.span,
      `the locals of ${what} take ${bytes} bytes, ${typeName(crossing.type)} \`${crossing.name}\` among them; WGSL allows ${WGSL_LIMITS.functionMemory} bytes of function memory per function`,
      'index large data where it lives (an accessor, a device global, a workgroup array) instead of copying it into a local',
    );
    return false;
  }

  private wgslParts(template: TemplateNode, scopes: Scopes): WgslPart[] | null {
    const problems = checkRawWgsl(template);
    for (const p of problems) this.reporter.error(codes.badWgsl, p, p.message, p.hint);
    if (problems.length > 0) return null;
    const parts: WgslPart[] = [];
    for (const [i, quasi] of template.quasis.entries()) {
      const text = quasi.value.cooked;
      if (text === null) {
        this.reporter.error(codes.badWgsl, quasi, 'invalid escape in the WGSL text');
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
        entity?.kind === 'opaque' ? codes.unresolvedImport : codes.badWgsl,
        node,
        `\${${this.reporter.source.slice(node)}} must name a parameter, a specializationId or a deviceGlobal${entity?.kind === 'opaque' ? `: ${entity.why}` : ''}`,
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
    resolver.reporter.error(
      codes.recursion,
      call.site,
      `\`${call.callee}\` is called recursively, which WGSL does not allow`,
      'rewrite the recursion as a loop',
    );
  }
}
