/**
 * Lowers device-code expressions to typed IR. Abstract literals (and top-level numeric consts)
 * stay abstract until the context gives them a type, as in WGSL; without context they default
 * to i32 / f32.
 */
import { type DataType, F16_MAX_EXCLUSIVE, type ScalarName, sameType } from '@syclts/dsl';
import type {
  AssignmentTarget,
  CallExpression,
  Expression as EsExpression,
  MemberExpression,
  ObjectExpression,
} from 'oxc-parser';
import type { BinaryOperator, Expr, ItemQuery } from '../../ir/device-code.js';
import { type Expression, propertyName, unwrap } from '../ast.js';
import { codes, type Reporter } from '../report.js';
import { type ConstValue, describeConst } from '../resolver/constants.js';
import { DSL_TYPE_NAMES } from '../resolver/dsl-names.js';
import type { Resolver } from '../resolver/resolver.js';
import {
  BOOL,
  F32,
  I32,
  isFloat,
  isInteger,
  scalarOf,
  scalarType,
  typeName,
  U32,
  vectorType,
  withScalar,
} from '../resolver/types.js';
import { didYouMean } from '../suggest.js';
import { ATOMIC_FUNCTIONS, BUILTINS, MATH_FUNCTIONS, VECTOR_OPERATORS } from './builtins.js';
import { binaryType, unaryType } from './operators.js';
import type { LocalBinding, Scopes } from './scope.js';

type Node = { readonly start: number; readonly end: number };

/** The type of a call to a function that returns nothing (never printed: only a statement). */
export const VOID: DataType = { kind: 'struct', fields: [] };
export const isVoid = (t: DataType) => t.kind === 'struct' && t.fields.length === 0;

export interface KernelShape {
  readonly dimensions: 1 | 2 | 3;
  readonly nd: boolean;
}

const SWIZZLE = /^([xyzw]{1,4}|[rgba]{1,4})$/;
const RGBA_TO_XYZW: Record<string, string> = { r: 'x', g: 'y', b: 'z', a: 'w' };

/** Functions of this module that device code called (for recursion checks). */
export type CallSite = { readonly name: string; readonly node: Node };

export class ExpressionLowering {
  readonly calls: CallSite[] = [];

  constructor(
    readonly resolver: Resolver,
    readonly reporter: Reporter,
    readonly scopes: Scopes,
    readonly kernel: KernelShape | null,
  ) {}

  protected span(node: Node) {
    return this.reporter.source.span(node.start, node.end);
  }

  protected text(node: Node): string {
    return this.reporter.source.slice(node);
  }

  protected fail(
    code: Parameters<Reporter['error']>[0],
    node: Node,
    message: string,
    hint?: string,
  ): null {
    this.reporter.error(code, node, message, hint);
    return null;
  }

  /** The entity of a top-level name, unless a local shadows it. */
  protected topEntity(node: Expression) {
    const n = unwrap(node);
    const root = n.type === 'MemberExpression' ? unwrap(n.object) : n;
    if (root.type === 'Identifier' && this.scopes.lookup(root.name)) return undefined;
    return this.resolver.entityOf(n);
  }

  /** A build-time constant (abstract in WGSL terms), when the expression is one. */
  protected constantOf(node: Expression): ConstValue | null {
    if (this.mentionsLocal(node)) return null;
    const v = this.resolver.evalConst(node, 'device');
    return v && (v.kind === 'number' || v.kind === 'bool') ? v : null;
  }

  private mentionsLocal(node: Expression): boolean {
    const n = unwrap(node);
    switch (n.type) {
      case 'Identifier':
        return this.scopes.lookup(n.name) !== undefined;
      case 'MemberExpression':
        return (
          this.mentionsLocal(n.object) ||
          (n.computed && this.mentionsLocal(n.property as Expression))
        );
      case 'UnaryExpression':
        return this.mentionsLocal(n.argument);
      case 'BinaryExpression':
        return this.mentionsLocal(n.left as Expression) || this.mentionsLocal(n.right);
      case 'LogicalExpression':
        return this.mentionsLocal(n.left) || this.mentionsLocal(n.right);
      case 'ConditionalExpression':
        return (
          this.mentionsLocal(n.test) ||
          this.mentionsLocal(n.consequent) ||
          this.mentionsLocal(n.alternate)
        );
      default:
        return false;
    }
  }

  /** A literal of a concrete type from an abstract constant, checking that it fits. */
  protected literal(value: ConstValue, type: DataType, node: Node): Expr | null {
    if (value.kind === 'bool') {
      if (type.kind === 'scalar' && type.scalar === 'bool') {
        return { op: 'literal', value: value.value, type, span: this.span(node) };
      }
      return this.fail(codes.typeMismatch, node, `expected ${typeName(type)}, found a bool`);
    }
    if (value.kind !== 'number') return this.fail(codes.typeMismatch, node, 'expected a number');
    const s = scalarOf(type);
    const fits = this.fits(value, s);
    if (type.kind !== 'scalar' || s === null || s === 'bool') {
      return this.fail(
        codes.typeMismatch,
        node,
        `expected ${typeName(type)}, found the number ${describeConst(value)}`,
      );
    }
    if (fits !== true) return this.fail(codes.literalRange, node, fits, hintFor(value, s));
    return { op: 'literal', value: value.value, type, span: this.span(node) };
  }

  private fits(value: { value: number; float: boolean }, s: ScalarName | null): true | string {
    const v = value.value;
    if (s === 'i32' || s === 'u32') {
      if (value.float) {
        return `${v} is a float literal and does not convert to ${s} implicitly`;
      }
      const [lo, hi] = s === 'i32' ? [-(2 ** 31), 2 ** 31 - 1] : [0, 2 ** 32 - 1];
      return Number.isInteger(v) && v >= lo && v <= hi ? true : `${v} does not fit in ${s}`;
    }
    if (s === 'f32') {
      return Number.isFinite(v) && Math.abs(v) <= 3.4028234663852886e38
        ? true
        : `${v} does not fit in f32`;
    }
    if (s === 'f16') {
      return Number.isFinite(v) && Math.abs(v) < F16_MAX_EXCLUSIVE
        ? true
        : `${v} does not fit in f16`;
    }
    return `expected ${s}`;
  }

  /** Default concrete type of an abstract constant: i32, f32 or bool, as WGSL. */
  protected defaultType(value: ConstValue): DataType {
    if (value.kind === 'bool') return BOOL;
    return value.kind === 'number' && value.float ? F32 : I32;
  }

  /** Concretises a constant for a context type: its scalar when the context is numeric. */
  protected constantFor(value: ConstValue, context: DataType | undefined, node: Node) {
    const s = context?.kind === 'matrix' ? 'f32' : context ? scalarOf(context) : null;
    const target =
      s !== null && (value.kind === 'bool') === (s === 'bool')
        ? scalarType(s)
        : this.defaultType(value);
    return this.literal(value, target, node);
  }

  /** A value expression: reports atomics and calls that return nothing used as values. */
  value(node: Expression, expected?: DataType): Expr | null {
    const e = this.expr(node, expected);
    if (!e) return null;
    if (e.type.kind === 'atomic') {
      return this.fail(
        codes.badAtomic,
        node,
        `\`${this.text(node)}\` is atomic: read it with atomicLoad`,
        `write atomicLoad(${this.text(node)})`,
      );
    }
    if (isVoid(e.type)) {
      return this.fail(codes.typeMismatch, node, `\`${this.text(node)}\` returns nothing`);
    }
    return e;
  }

  /** A value of exactly `type` (abstract literals take it). */
  valueOf(node: Expression, type: DataType, what: string): Expr | null {
    const c = this.constantOf(node);
    if (c) return this.literal(c, type, node);
    const n = unwrap(node);
    if (n.type === 'ObjectExpression' || n.type === 'ArrayExpression') return this.value(n, type);
    const e = this.value(node, type);
    if (!e) return null;
    if (!sameType(e.type, type)) {
      return this.fail(
        codes.typeMismatch,
        node,
        `${what} must be ${typeName(type)}, not ${typeName(e.type)}`,
        conversionHint(e.type, type, this.text(node)),
      );
    }
    return e;
  }

  expr(input: Expression, expected?: DataType): Expr | null {
    const node = unwrap(input);
    const c = this.constantOf(node);
    if (c) return this.constantFor(c, expected, node);
    switch (node.type) {
      case 'Identifier':
        return this.identifier(node.name, node, expected);
      case 'Literal':
        return this.fail(
          codes.unsupportedSyntax,
          node,
          `\`${this.text(node)}\` is not a device value (numbers and booleans only)`,
        );
      case 'UnaryExpression':
        return this.unary(node.operator, node.argument, node, expected);
      case 'BinaryExpression': {
        const op = node.operator;
        if (op === 'in' || op === 'instanceof' || op === '**') {
          return this.fail(
            codes.unsupportedSyntax,
            node,
            `\`${op}\` is not supported in device code`,
            op === '**' ? 'write pow(a, b) or Math.pow(a, b)' : undefined,
          );
        }
        return this.binary(op, node.left as Expression, node.right, node, expected);
      }
      case 'LogicalExpression':
        if (node.operator === '??') {
          return this.fail(codes.unsupportedSyntax, node, '`??` is not supported in device code');
        }
        return this.binary(node.operator, node.left, node.right, node, expected);
      case 'ConditionalExpression':
        return this.conditional(node.test, node.consequent, node.alternate, node, expected);
      case 'MemberExpression':
        return this.member(node, expected);
      case 'CallExpression':
        return this.call(node, expected);
      case 'ArrayExpression':
        return this.arrayLiteral(node.elements, node, expected);
      case 'ObjectExpression':
        return this.objectLiteral(node, expected);
      case 'AssignmentExpression':
      case 'UpdateExpression':
        return this.fail(
          codes.unsupportedSyntax,
          node,
          `\`${this.text(node)}\` changes a value inside an expression, which WGSL cannot do`,
          'write the assignment or increment as its own statement',
        );
      case 'TemplateLiteral':
      case 'TaggedTemplateExpression':
        return this.fail(
          codes.unsupportedSyntax,
          node,
          'template literals are only allowed as a deviceFunction body: wgsl`...`',
        );
      default:
        return this.fail(
          codes.unsupportedSyntax,
          node,
          `${describeNode(node.type)} is not supported in device code`,
        );
    }
  }

  private identifier(name: string, node: Node, expected?: DataType): Expr | null {
    const local = this.scopes.lookup(name);
    if (local) return this.localValue(local, name, node);
    const entity = this.resolver.entity(name);
    if (entity?.kind === 'constant') return this.constantValue(entity.value, expected, node);
    if (!entity) {
      if (name === 'undefined' || name === 'NaN' || name === 'Infinity') {
        return this.fail(codes.unsupportedSyntax, node, `\`${name}\` has no WGSL equivalent`);
      }
      return this.fail(
        codes.unknownName,
        node,
        `\`${name}\` is not defined in device code`,
        didYouMean(name, [...this.scopes.visibleNames(), ...this.resolver.top.bindings.keys()]),
      );
    }
    switch (entity.kind) {
      case 'deviceGlobal':
        return this.fail(
          codes.badMember,
          node,
          `\`${name}\` is a device global: use its \`.value\``,
          `write ${name}.value`,
        );
      case 'specConstant':
        return this.fail(
          codes.badMember,
          node,
          `\`${name}\` is a specialization constant: read it through the kernel handler`,
          `write kh.getSpecializationConstant(${name})`,
        );
      case 'opaque':
        return this.fail(
          this.resolver.top.bindings.get(name)?.kind === 'import'
            ? codes.unresolvedImport
            : codes.unknownName,
          node,
          `\`${name}\` cannot be used in device code: ${entity.why}`,
        );
      default:
        return this.fail(
          codes.typeMismatch,
          node,
          `\`${name}\` is ${entity.kind === 'dsl' ? 'a DSL export' : `a ${entity.kind}`}, not a value`,
        );
    }
  }

  /**
   * A top-level constant array or object used in device code becomes a constructed value:
   * elements take the context's type, else i32 / f32 / bool as literals do.
   */
  private constantValue(
    value: ConstValue,
    expected: DataType | undefined,
    node: Node,
  ): Expr | null {
    if (value.kind === 'number' || value.kind === 'bool')
      return this.constantFor(value, expected, node);
    if (value.kind === 'array') {
      if (value.items.length === 0)
        return this.fail(codes.typeMismatch, node, 'an empty array has no WGSL type');
      const element =
        expected?.kind === 'array'
          ? expected.element
          : expected?.kind === 'vector'
            ? undefined
            : this.constantElementType(value.items);
      if (expected?.kind === 'vector' && value.items.length === expected.size) {
        const args: Expr[] = [];
        for (const item of value.items) {
          const e = this.constantValue(item, scalarType(expected.component), node);
          if (!e) return null;
          args.push(e);
        }
        return { op: 'construct', args, type: expected, span: this.span(node) };
      }
      if (!element)
        return this.fail(codes.typeMismatch, node, 'this constant does not fit its context');
      const args: Expr[] = [];
      for (const item of value.items) {
        const e = this.constantValue(item, element, node);
        if (!e) return null;
        args.push(e);
      }
      return {
        op: 'construct',
        args,
        type: { kind: 'array', element: args[0]!.type, length: args.length },
        span: this.span(node),
      };
    }
    if (value.kind === 'object' && expected?.kind === 'struct' && !isVoid(expected)) {
      const args: Expr[] = [];
      for (const field of expected.fields) {
        const v = value.fields.get(field.name);
        if (!v) return this.fail(codes.typeMismatch, node, `field \`${field.name}\` is missing`);
        const e = this.constantValue(v, field.type, node);
        if (!e) return null;
        args.push(e);
      }
      return { op: 'construct', args, type: expected, span: this.span(node) };
    }
    return this.fail(
      codes.typeMismatch,
      node,
      value.kind === 'object'
        ? 'a constant object needs a struct type from its context'
        : `${describeConst(value)} is not a device value`,
    );
  }

  private constantElementType(items: readonly ConstValue[]): DataType | undefined {
    const first = items[0]!;
    if (first.kind === 'array') {
      const inner = this.constantElementType(first.items);
      return inner && { kind: 'array', element: inner, length: first.items.length };
    }
    if (first.kind === 'bool') return BOOL;
    if (first.kind !== 'number') return undefined;
    return items.some((i) => i.kind === 'number' && i.float) ? F32 : I32;
  }

  private localValue(b: LocalBinding, name: string, node: Node): Expr | null {
    switch (b.kind) {
      case 'poisoned':
        // Already reported where it was declared; count it without a second message.
        this.reporter.error(codes.typeMismatch, null, '', undefined, true);
        return null;
      case 'local':
        return { op: 'local', name: b.name, type: b.type, span: this.span(node) };
      case 'kernelArg':
        if (b.param.kind === 'accessor') {
          return {
            op: 'param',
            name: b.param.name,
            type: runtimeArray(b.param.element),
            span: this.span(node),
          };
        }
        return { op: 'param', name: b.param.name, type: b.param.type, span: this.span(node) };
      case 'workgroupArray':
        return {
          op: 'workgroupArray',
          name: b.decl.name,
          type: workgroupArrayType(b.decl),
          span: this.span(node),
        };
      default:
        return this.fail(
          codes.typeMismatch,
          node,
          `\`${name}\` is the kernel's ${b.kind === 'item' ? 'item' : b.kind === 'handler' ? 'handler' : 'argument object'}, not a value`,
        );
    }
  }

  private unary(op: string, argument: Expression, node: Node, expected?: DataType): Expr | null {
    if (op === '+') return this.value(argument, expected);
    if (op !== '-' && op !== '!' && op !== '~') {
      return this.fail(codes.unsupportedSyntax, node, `\`${op}\` is not supported in device code`);
    }
    const operand = this.value(argument, op === '!' ? BOOL : expected);
    if (!operand) return null;
    const t = unaryType(op, operand.type);
    if (!t.ok) return this.fail(codes.typeMismatch, node, t.why);
    return { op: 'unary', operator: op, operand, type: t.type, span: this.span(node) };
  }

  binary(
    sourceOp: string,
    leftNode: Expression,
    rightNode: Expression,
    node: Node,
    expected?: DataType,
  ): Expr | null {
    const op = this.binaryOperator(sourceOp, node);
    if (!op) return null;
    const shift = op === '<<' || op === '>>';
    const logical = op === '&&' || op === '||';
    const comparison = ['==', '!=', '<', '<=', '>', '>='].includes(op);
    const operandExpected = logical ? BOOL : comparison ? undefined : expected;
    const lc = this.constantOf(leftNode);
    const rc = this.constantOf(rightNode);
    let left: Expr | null;
    let right: Expr | null;
    if (lc && !rc) {
      right = this.value(rightNode, shift ? undefined : operandExpected);
      if (!right) return null;
      left = shift
        ? this.constantFor(lc, expected, leftNode)
        : this.constantFor(lc, right.type, leftNode);
    } else if (rc && !lc) {
      left = this.value(leftNode, operandExpected);
      if (!left) return null;
      right = this.constantFor(rc, shift ? U32 : left.type, rightNode);
    } else {
      left = this.value(leftNode, operandExpected);
      right = this.value(rightNode, shift ? undefined : (left?.type ?? operandExpected));
    }
    if (!left || !right) return null;
    if (sourceOp === '>>>' && scalarOf(left.type) !== 'u32') {
      return this.fail(
        codes.typeMismatch,
        node,
        `\`>>>\` is a logical shift of a u32, not of ${typeName(left.type)}`,
        'convert the value with u32(...) first, or write `>>` for an arithmetic shift',
      );
    }
    const invalid = invalidConstantOperand(op, left.type, right);
    if (invalid) return this.fail(codes.constantOperand, rightNode, invalid);
    const t = binaryType(op, left.type, right.type);
    if (!t.ok) {
      return this.fail(
        codes.typeMismatch,
        node,
        t.why,
        shift && isInteger(scalarOf(right.type))
          ? `convert the shift amount: u32(${this.text(rightNode)})`
          : conversionHint(right.type, left.type, this.text(rightNode)),
      );
    }
    return { op: 'binary', operator: op, left, right, type: t.type, span: this.span(node) };
  }

  private binaryOperator(op: string, node: Node): BinaryOperator | null {
    switch (op) {
      case '===':
        return '==';
      case '!==':
        return '!=';
      case '>>>':
        return '>>';
      case '+':
      case '-':
      case '*':
      case '/':
      case '%':
      case '&':
      case '|':
      case '^':
      case '<<':
      case '>>':
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=':
      case '&&':
      case '||':
        return op;
      default:
        return this.fail(
          codes.unsupportedSyntax,
          node,
          `\`${op}\` is not supported in device code`,
        );
    }
  }

  private conditional(
    test: Expression,
    whenTrueNode: Expression,
    whenFalseNode: Expression,
    node: Node,
    expected?: DataType,
  ): Expr | null {
    const condition = this.valueOf(test, BOOL, 'a condition');
    const tc = this.constantOf(whenTrueNode);
    const fc = this.constantOf(whenFalseNode);
    let whenTrue: Expr | null;
    let whenFalse: Expr | null;
    if (tc && !fc) {
      whenFalse = this.value(whenFalseNode, expected);
      whenTrue = whenFalse ? this.constantFor(tc, whenFalse.type, whenTrueNode) : null;
    } else {
      whenTrue = this.value(whenTrueNode, expected);
      whenFalse = whenTrue ? this.valueOf(whenFalseNode, whenTrue.type, 'both branches') : null;
    }
    if (!condition || !whenTrue || !whenFalse) return null;
    if (!sameType(whenTrue.type, whenFalse.type)) {
      return this.fail(
        codes.typeMismatch,
        node,
        `the branches have different types: ${typeName(whenTrue.type)} and ${typeName(whenFalse.type)}`,
      );
    }
    return {
      op: 'select',
      condition,
      whenTrue,
      whenFalse,
      type: whenTrue.type,
      span: this.span(node),
    };
  }

  private member(node: MemberExpression, expected?: DataType): Expr | null {
    if (node.optional) {
      return this.fail(
        codes.unsupportedSyntax,
        node,
        'optional chaining is not supported in device code',
      );
    }
    if (node.computed) return this.index(node.object, node.property as Expression, node);
    if (node.property.type !== 'Identifier') {
      return this.fail(codes.unsupportedSyntax, node, 'private fields are not supported');
    }
    const name = node.property.name;
    const objectEntity = this.topEntity(node.object);
    if (objectEntity?.kind === 'deviceGlobal') {
      if (name !== 'value') {
        return this.fail(
          codes.badMember,
          node.property,
          `a device global has only \`.value\` in device code, not \`.${name}\``,
          `write ${this.text(node.object)}.value`,
        );
      }
      return {
        op: 'deviceGlobal',
        ref: objectEntity.ref,
        type: objectEntity.type,
        span: this.span(node),
      };
    }
    const root = unwrap(node.object);
    if (root.type === 'Identifier') {
      const local = this.scopes.lookup(root.name);
      if (local?.kind === 'members') {
        const binding = local.members.get(name);
        if (!binding) {
          return this.fail(
            codes.unknownName,
            node.property,
            `the kernel has no ${local.of} \`${name}\``,
            didYouMean(name, [...local.members.keys()]),
          );
        }
        return this.localValue(binding, name, node);
      }
      if (local?.kind === 'item' || local?.kind === 'handler') {
        return this.fail(
          codes.badMember,
          node,
          `\`${this.text(node)}\` must be called`,
          `write ${this.text(node)}(...)`,
        );
      }
    }
    const base = this.expr(node.object, expected);
    if (!base) return null;
    if (name === 'length' && base.type.kind === 'array') {
      if (base.type.length > 0) {
        return { op: 'literal', value: base.type.length, type: U32, span: this.span(node) };
      }
      if (base.op === 'param') {
        return {
          op: 'builtin',
          name: 'arrayLength',
          args: [base],
          type: U32,
          span: this.span(node),
        };
      }
    }
    if (base.type.kind === 'struct' && !isVoid(base.type)) {
      const field = base.type.fields.find((f) => f.name === name);
      if (!field) {
        return this.fail(
          codes.badMember,
          node.property,
          `${typeName(base.type)} has no field \`${name}\``,
          `fields: ${base.type.fields.map((f) => f.name).join(', ')}`,
        );
      }
      return { op: 'member', base, member: name, type: field.type, span: this.span(node) };
    }
    if (base.type.kind === 'vector' && SWIZZLE.test(name)) {
      const size = base.type.size;
      const components = name.replace(/[rgba]/g, (c) => RGBA_TO_XYZW[c] ?? c);
      const valid = [...components].every((c) => 'xyzw'.indexOf(c) < size);
      if (!valid) {
        return this.fail(
          codes.badMember,
          node.property,
          `\`.${name}\` reads past the end of a ${typeName(base.type)}`,
        );
      }
      const type =
        components.length === 1
          ? scalarType(base.type.component)
          : vectorType(base.type.component, components.length as 2 | 3 | 4);
      return { op: 'swizzle', base, components, type, span: this.span(node) };
    }
    return this.fail(
      codes.badMember,
      node.property,
      `${typeName(base.type)} has no member \`${name}\``,
      base.type.kind === 'vector' ? 'vectors have swizzles: .x .xy .zyx .rgba ...' : undefined,
    );
  }

  private index(objectNode: Expression, indexNode: Expression, node: Node): Expr | null {
    const base = this.expr(objectNode);
    if (!base) return null;
    const length = indexableLength(base.type);
    if (length === null) {
      return this.fail(codes.badIndex, objectNode, `${typeName(base.type)} cannot be indexed`);
    }
    const c = this.constantOf(indexNode);
    let index: Expr | null;
    if (c) {
      if (c.kind !== 'number' || c.float || !Number.isInteger(c.value)) {
        return this.fail(codes.badIndex, indexNode, 'an index must be an integer');
      }
      if (c.value < 0 || (length > 0 && c.value >= length)) {
        return this.fail(
          codes.badIndex,
          indexNode,
          `index ${c.value} is out of bounds for ${typeName(base.type)}`,
        );
      }
      index = this.literal(c, U32, indexNode);
    } else {
      index = this.value(indexNode);
      if (index && (index.type.kind !== 'scalar' || !isInteger(index.type.scalar))) {
        return this.fail(
          codes.badIndex,
          indexNode,
          `an index must be i32 or u32, not ${typeName(index.type)}`,
          isFloat(scalarOf(index.type)) ? `write u32(${this.text(indexNode)})` : undefined,
        );
      }
    }
    if (!index) return null;
    const type = elementType(base.type);
    return { op: 'index', base, index, type, span: this.span(node) };
  }

  private arrayLiteral(
    elements: readonly (EsExpression | { type: 'SpreadElement' } | null)[],
    node: Node,
    expected?: DataType,
  ): Expr | null {
    if (elements.length === 0) {
      return this.fail(codes.typeMismatch, node, 'an empty array has no WGSL type');
    }
    let elementTypeHint = expected?.kind === 'array' ? expected.element : undefined;
    const items: Expression[] = [];
    for (const e of elements) {
      if (!e || e.type === 'SpreadElement') {
        return this.fail(
          codes.unsupportedSyntax,
          node,
          'array literals cannot have holes or spreads',
        );
      }
      items.push(e as Expression);
    }
    if (expected?.kind === 'array' && expected.length !== items.length && expected.length > 0) {
      return this.fail(
        codes.typeMismatch,
        node,
        `expected ${expected.length} elements (${typeName(expected)}), found ${items.length}`,
      );
    }
    if (!elementTypeHint) {
      const firstConcrete = items.find((i) => !this.constantOf(i));
      if (firstConcrete) {
        elementTypeHint = this.value(firstConcrete)?.type;
        if (!elementTypeHint) return null;
      } else {
        const consts = items.map((i) => this.constantOf(i)!);
        elementTypeHint = this.defaultType(
          consts.find((v) => v.kind === 'number' && v.float) ?? consts[0]!,
        );
      }
    }
    const args: Expr[] = [];
    for (const item of items) {
      const e = this.valueOf(item, elementTypeHint, 'every element');
      if (!e) return null;
      args.push(e);
    }
    return {
      op: 'construct',
      args,
      type: { kind: 'array', element: elementTypeHint, length: args.length },
      span: this.span(node),
    };
  }

  private objectLiteral(node: ObjectExpression, expected?: DataType): Expr | null {
    if (expected?.kind !== 'struct' || isVoid(expected)) {
      return this.fail(
        codes.typeMismatch,
        node,
        'an object literal needs a struct type from its context',
        'assign it to a struct-typed place (an accessor element, a device global, a parameter) or build it where one is expected',
      );
    }
    const given = new Map<string, Expression>();
    for (const prop of node.properties) {
      const key =
        prop.type === 'Property' && !prop.method ? propertyName(prop.key, prop.computed) : null;
      if (prop.type !== 'Property' || key === null) {
        return this.fail(
          codes.unsupportedSyntax,
          prop,
          'struct literals need plain `field: value` entries',
        );
      }
      if (!expected.fields.some((f) => f.name === key)) {
        return this.fail(
          codes.badMember,
          prop.key,
          `${typeName(expected)} has no field \`${key}\``,
        );
      }
      given.set(key, prop.value);
    }
    const args: Expr[] = [];
    for (const field of expected.fields) {
      const valueNode = given.get(field.name);
      if (!valueNode) {
        return this.fail(codes.typeMismatch, node, `field \`${field.name}\` is missing`);
      }
      const e = this.valueOf(valueNode, field.type, `field \`${field.name}\``);
      if (!e) return null;
      args.push(e);
    }
    return { op: 'construct', args, type: expected, span: this.span(node) };
  }

  call(node: CallExpression, expected?: DataType): Expr | null {
    if (node.optional) {
      return this.fail(
        codes.unsupportedSyntax,
        node,
        'optional calls are not supported in device code',
      );
    }
    const args: Expression[] = [];
    for (const a of node.arguments) {
      if (a.type === 'SpreadElement') {
        return this.fail(
          codes.unsupportedSyntax,
          a,
          'spread arguments are not supported in device code',
        );
      }
      args.push(a);
    }
    const callee = unwrap(node.callee);
    if (
      callee.type === 'MemberExpression' &&
      !callee.computed &&
      callee.property.type === 'Identifier'
    ) {
      const method = callee.property.name;
      const object = unwrap(callee.object);
      if (object.type === 'Identifier') {
        const local = this.scopes.lookup(object.name);
        if (local?.kind === 'item') return this.itemQuery(method, args, node);
        if (local?.kind === 'handler') return this.handlerCall(method, args, node);
        if (!local && object.name === 'Math' && !this.resolver.top.bindings.has('Math')) {
          return this.mathCall(method, args, node, expected);
        }
      }
    }
    const entity = this.topEntity(callee);
    if (!entity) {
      return this.fail(
        codes.badCall,
        node.callee,
        `\`${this.text(node.callee)}\` cannot be called in device code`,
        'call a deviceFunction, a DSL built-in, a type constructor, or an item/handler method',
      );
    }
    switch (entity.kind) {
      case 'function': {
        const sig = entity.signature;
        if (args.length !== sig.params.length) {
          return this.fail(
            codes.badCall,
            node,
            `\`${this.text(callee)}\` takes ${sig.params.length} argument(s), not ${args.length}`,
          );
        }
        const lowered: Expr[] = [];
        for (const [i, a] of args.entries()) {
          const param = sig.params[i]!;
          if (param === 'handler') {
            const arg = unwrap(a);
            if (arg.type !== 'Identifier' || this.scopes.lookup(arg.name)?.kind !== 'handler') {
              return this.fail(
                codes.badCall,
                a,
                `argument ${i + 1} of \`${this.text(callee)}\` is the kernel handler`,
                "pass the kernel's kh (or the kh parameter of the calling device function)",
              );
            }
            continue;
          }
          const e = this.valueOf(a, param, `argument ${i + 1}`);
          if (!e) return null;
          lowered.push(e);
        }
        if (entity.ref.kind === 'local') this.calls.push({ name: entity.ref.name, node });
        return {
          op: 'call',
          callee: entity.ref,
          args: lowered,
          type: sig.returns ?? VOID,
          span: this.span(node),
        };
      }
      case 'type':
        return this.construct(entity.type, args, node);
      case 'dsl':
        return this.dslCall(entity.name, args, node, expected);
      case 'opaque':
        return this.fail(
          this.resolver.top.bindings.get(this.text(callee))?.kind === 'import'
            ? codes.unresolvedImport
            : codes.badCall,
          node.callee,
          `\`${this.text(callee)}\` cannot be called in device code: ${entity.why}`,
        );
      default:
        return this.fail(
          codes.badCall,
          node.callee,
          `\`${this.text(callee)}\` is a ${entity.kind}, which device code cannot call`,
        );
    }
  }

  private dslCall(
    name: string,
    args: Expression[],
    node: CallExpression,
    expected?: DataType,
  ): Expr | null {
    const type = DSL_TYPE_NAMES.get(name);
    if (type) return this.construct(type, args, node);
    const operator = VECTOR_OPERATORS[name];
    if (operator) {
      if (args.length !== 2) return this.fail(codes.badCall, node, `${name} takes 2 arguments`);
      return this.binary(operator, args[0]!, args[1]!, node, expected);
    }
    if (name === 'neg') {
      if (args.length !== 1) return this.fail(codes.badCall, node, 'neg takes 1 argument');
      return this.unary('-', args[0]!, node, expected);
    }
    if (ATOMIC_FUNCTIONS.has(name)) return this.atomic(name, args, node);
    const builtin = BUILTINS.get(name);
    if (builtin) return this.builtin(name, args, node, expected);
    return this.fail(
      codes.badCall,
      node.callee,
      `\`${name}\` from @syclts/dsl cannot be called in device code`,
    );
  }

  /** Calls a WGSL built-in from the table, concretising abstract arguments to the generic type. */
  builtin(name: string, args: Expression[], node: Node, expected?: DataType): Expr | null {
    const spec = BUILTINS.get(name)!;
    if (args.length !== spec.arity) {
      return this.fail(
        codes.badCall,
        node,
        `${name} takes ${spec.arity} argument(s), not ${args.length}`,
      );
    }
    const lowered: (Expr | null)[] = args.map(() => null);
    let generic: DataType | undefined;
    for (const [i, a] of args.entries()) {
      if (spec.unified.includes(i) && this.constantOf(a)) continue;
      const e = this.value(a, spec.unified.includes(i) ? expected : undefined);
      if (!e) return null;
      lowered[i] = e;
      if (spec.unified.includes(i) && !generic) generic = e.type;
    }
    for (const i of spec.unified) {
      if (lowered[i]) continue;
      const c = this.constantOf(args[i]!)!;
      const context =
        generic ??
        (expected && scalarOf(expected) && scalarOf(expected) !== 'bool'
          ? expected
          : scalarType(c.kind === 'number' && c.float ? 'f32' : spec.defaultScalar));
      const target = scalarType(scalarOf(context) ?? spec.defaultScalar);
      const e = this.literal(c, target, args[i]!);
      if (!e) return null;
      lowered[i] = generic && generic.kind === 'vector' ? splat(e, generic) : e;
    }
    const final = lowered as Expr[];
    const t = spec.type(final.map((e) => e.type));
    if (!t.ok) return this.fail(codes.typeMismatch, node, t.why);
    return { op: 'builtin', name: spec.wgsl, args: final, type: t.type, span: this.span(node) };
  }

  private mathCall(
    method: string,
    args: Expression[],
    node: CallExpression,
    expected?: DataType,
  ): Expr | null {
    const mapped = MATH_FUNCTIONS[method];
    if (mapped) return this.builtin(mapped, args, node, expected);
    switch (method) {
      case 'min':
      case 'max': {
        if (args.length < 2)
          return this.fail(codes.badCall, node, `Math.${method} needs at least 2 arguments`);
        // Math.min(a, b, c) nests as min(min(a, b), c).
        let acc = this.builtin(method, [args[0]!, args[1]!], node, expected);
        for (const a of args.slice(2)) {
          if (!acc) return null;
          const next = this.valueOf(a, acc.type, `an argument of Math.${method}`);
          if (!next) return null;
          const nested: Expr = {
            op: 'builtin',
            name: method,
            args: [acc, next],
            type: acc.type,
            span: this.span(node),
          };
          acc = nested;
        }
        return acc;
      }
      case 'round': {
        // JavaScript rounds halves up; WGSL's round() rounds them to even.
        if (args.length !== 1) return this.fail(codes.badCall, node, 'Math.round takes 1 argument');
        const x = this.builtin('floor', [args[0]!], node, expected);
        if (x?.op !== 'builtin') return null;
        const inner = x.args[0]!;
        const half: Expr = {
          op: 'literal',
          value: 0.5,
          type: scalarType(scalarOf(inner.type)!),
          span: x.span,
        };
        const sum: Expr = {
          op: 'binary',
          operator: '+',
          left: inner,
          right: inner.type.kind === 'vector' ? splat(half, inner.type) : half,
          type: inner.type,
          span: x.span,
        };
        return { ...x, args: [sum] };
      }
      case 'fround':
        return this.construct(F32, args, node);
      case 'imul': {
        if (args.length !== 2) return this.fail(codes.badCall, node, 'Math.imul takes 2 arguments');
        const a = this.valueOf(args[0]!, I32, 'Math.imul’s arguments');
        const b = this.valueOf(args[1]!, I32, 'Math.imul’s arguments');
        if (!a || !b) return null;
        return { op: 'binary', operator: '*', left: a, right: b, type: I32, span: this.span(node) };
      }
      case 'clz32': {
        if (args.length !== 1) return this.fail(codes.badCall, node, 'Math.clz32 takes 1 argument');
        const a = this.valueOf(args[0]!, U32, 'Math.clz32’s argument');
        if (!a) return null;
        return {
          op: 'builtin',
          name: 'countLeadingZeros',
          args: [a],
          type: U32,
          span: this.span(node),
        };
      }
      default:
        return this.fail(
          codes.badCall,
          node.callee,
          `Math.${method} has no WGSL equivalent`,
          'see the DSL built-ins (sqrt, fma, mix, clamp, ...)',
        );
    }
  }

  /** `f32(x)`, `vec3f(a, b, c)`, `mat2x2f(...)`: conversions and constructors, as in WGSL. */
  construct(type: DataType, args: Expression[], node: Node): Expr | null {
    const span = this.span(node);
    if (type.kind === 'scalar') {
      if (args.length !== 1) {
        return this.fail(codes.badCall, node, `${type.scalar}(...) converts exactly one value`);
      }
      const c = this.constantOf(args[0]!);
      if (c) return this.convertConstant(c, type, args[0]!);
      const v = this.value(args[0]!);
      if (!v) return null;
      if (v.type.kind !== 'scalar') {
        return this.fail(
          codes.typeMismatch,
          args[0]!,
          `${type.scalar}(...) converts a scalar, not ${typeName(v.type)}`,
        );
      }
      if (sameType(v.type, type)) return v;
      return { op: 'construct', args: [v], type, span };
    }
    if (type.kind === 'vector') {
      if (args.length === 0) return { op: 'construct', args: [], type, span };
      if (args.length === 1) {
        const c = this.constantOf(args[0]!);
        const v = c ? this.literal(c, scalarType(type.component), args[0]!) : this.value(args[0]!);
        if (!v) return null;
        if (v.type.kind === 'scalar' && v.type.scalar === type.component) {
          return { op: 'construct', args: [v], type, span };
        }
        if (v.type.kind === 'vector' && v.type.size === type.size) {
          return sameType(v.type, type) ? v : { op: 'construct', args: [v], type, span };
        }
        return this.fail(
          codes.typeMismatch,
          args[0]!,
          `cannot build ${typeName(type)} from ${typeName(v.type)}`,
        );
      }
      const parts: Expr[] = [];
      let count = 0;
      for (const a of args) {
        const c = this.constantOf(a);
        const v = c ? this.literal(c, scalarType(type.component), a) : this.value(a);
        if (!v) return null;
        if (
          scalarOf(v.type) !== type.component ||
          (v.type.kind !== 'scalar' && v.type.kind !== 'vector')
        ) {
          return this.fail(
            codes.typeMismatch,
            a,
            `a component of ${typeName(type)} must be ${type.component}, not ${typeName(v.type)}`,
            conversionHint(v.type, withScalar(v.type, type.component), this.text(a)),
          );
        }
        count += v.type.kind === 'vector' ? v.type.size : 1;
        parts.push(v);
      }
      if (count !== type.size) {
        return this.fail(
          codes.badCall,
          node,
          `${typeName(type)} needs ${type.size} components, got ${count}`,
        );
      }
      return { op: 'construct', args: parts, type, span };
    }
    if (type.kind === 'matrix') {
      if (args.length === 0) return { op: 'construct', args: [], type, span };
      const column = vectorType('f32', type.rows);
      const byColumns = args.length === type.columns;
      if (!byColumns && args.length !== type.columns * type.rows) {
        return this.fail(
          codes.badCall,
          node,
          `${typeName(type)} takes ${type.columns} column vectors or ${type.columns * type.rows} scalars`,
        );
      }
      const parts: Expr[] = [];
      for (const a of args) {
        const v = this.valueOf(a, byColumns ? column : F32, 'a matrix argument');
        if (!v) return null;
        parts.push(v);
      }
      return { op: 'construct', args: parts, type, span };
    }
    if (type.kind === 'struct' || type.kind === 'array') {
      if (args.length !== 1) {
        return this.fail(codes.badCall, node, `${typeName(type)} is built from one literal`);
      }
      return this.valueOf(args[0]!, type, 'the value');
    }
    return this.fail(codes.badCall, node, `${typeName(type)} cannot be constructed`);
  }

  private convertConstant(c: ConstValue, type: DataType & { kind: 'scalar' }, node: Node) {
    if (c.kind === 'bool') {
      if (type.scalar === 'bool') return this.literal(c, type, node);
      return this.literal({ kind: 'number', value: c.value ? 1 : 0, float: false }, type, node);
    }
    if (c.kind !== 'number') return this.literal(c, type, node);
    if (type.scalar === 'bool')
      return this.literal({ kind: 'bool', value: c.value !== 0 }, type, node);
    if (type.scalar === 'i32' || type.scalar === 'u32') {
      return this.literal({ kind: 'number', value: Math.trunc(c.value), float: false }, type, node);
    }
    return this.literal({ kind: 'number', value: c.value, float: true }, type, node);
  }

  private itemQuery(method: string, args: Expression[], node: CallExpression): Expr | null {
    const k = this.kernel!;
    const basic: Record<string, ItemQuery> = {
      getId: 'globalId',
      getRange: 'globalRange',
      getLinearId: 'globalLinearId',
    };
    const nd: Record<string, ItemQuery> = {
      getGlobalId: 'globalId',
      getGlobalRange: 'globalRange',
      getLocalId: 'localId',
      getLocalRange: 'localRange',
      getGroup: 'groupId',
      getGroupRange: 'groupRange',
      getGlobalLinearId: 'globalLinearId',
      getLocalLinearId: 'localLinearId',
    };
    if (method === 'barrier') {
      return this.fail(codes.badBarrier, node, 'item.barrier() is a statement, not a value');
    }
    const query = (k.nd ? nd : basic)[method];
    if (!query) {
      return this.fail(
        codes.badMember,
        node.callee,
        `${k.nd ? 'an nd-item' : 'an item'} has no method \`${method}\``,
        `available: ${Object.keys(k.nd ? nd : basic).join(', ')}${k.nd ? ', barrier' : ''}`,
      );
    }
    const linear = query === 'globalLinearId' || query === 'localLinearId';
    if (linear) {
      if (args.length !== 0) return this.fail(codes.badCall, node, `${method}() takes no argument`);
      return { op: 'item', query, dimension: 0, type: U32, span: this.span(node) };
    }
    const c = args.length === 1 ? this.constantOf(args[0]!) : null;
    if (
      c?.kind !== 'number' ||
      c.float ||
      c.value < 0 ||
      c.value >= k.dimensions ||
      !Number.isInteger(c.value)
    ) {
      return this.fail(
        codes.badCall,
        args[0] ?? node,
        `${method} takes a constant dimension from 0 to ${k.dimensions - 1}`,
      );
    }
    return { op: 'item', query, dimension: c.value, type: U32, span: this.span(node) };
  }

  private handlerCall(method: string, args: Expression[], node: CallExpression): Expr | null {
    if (method !== 'getSpecializationConstant') {
      return this.fail(
        codes.badMember,
        node.callee,
        `the kernel handler has no method \`${method}\``,
        'write kh.getSpecializationConstant(id)',
      );
    }
    const id = args[0];
    const entity = id && args.length === 1 ? this.topEntity(id) : undefined;
    if (entity?.kind !== 'specConstant') {
      const why = entity?.kind === 'opaque' ? `: ${entity.why}` : '';
      return this.fail(
        entity?.kind === 'opaque' ? codes.unresolvedImport : codes.badCall,
        id ?? node,
        `getSpecializationConstant takes a specializationId declared at top level${why}`,
      );
    }
    return { op: 'specConstant', ref: entity.ref, type: entity.type, span: this.span(node) };
  }

  /** An lvalue of atomic type, for the atomic built-ins. */
  private atomicPointer(node: Expression): Expr | null {
    const entity = this.topEntity(node);
    const e: Expr | null =
      entity?.kind === 'deviceGlobal'
        ? { op: 'deviceGlobal', ref: entity.ref, type: entity.type, span: this.span(node) }
        : this.expr(node);
    if (!e) return null;
    if (e.type.kind !== 'atomic') {
      return this.fail(
        codes.badAtomic,
        node,
        `atomic functions need an atomic(i32) or atomic(u32) place, not ${typeName(e.type)}`,
        'declare the accessor element, device global or workgroup array with atomic(u32)',
      );
    }
    const root = rootOf(e);
    if (root.op === 'param' && this.readOnlyAccessor(root.name)) {
      return this.fail(codes.badAtomic, node, 'atomics need a read_write accessor');
    }
    return e;
  }

  protected readOnlyAccessor(name: string): boolean {
    void name;
    return false;
  }

  private atomic(name: string, args: Expression[], node: CallExpression): Expr | null {
    const arity = name === 'atomicLoad' ? 1 : name === 'atomicCompareExchangeWeak' ? 3 : 2;
    if (args.length !== arity) {
      return this.fail(
        codes.badCall,
        node,
        `${name} takes ${arity} argument(s), not ${args.length}`,
      );
    }
    const pointer = this.atomicPointer(args[0]!);
    if (pointer?.type.kind !== 'atomic') return null;
    const scalar = scalarType(pointer.type.scalar);
    const rest: Expr[] = [];
    for (const a of args.slice(1)) {
      const e = this.valueOf(a, scalar, `an operand of ${name}`);
      if (!e) return null;
      rest.push(e);
    }
    const type: DataType =
      name === 'atomicStore'
        ? VOID
        : name === 'atomicCompareExchangeWeak'
          ? {
              kind: 'struct',
              fields: [
                { name: 'old_value', type: scalar },
                { name: 'exchanged', type: BOOL },
              ],
            }
          : scalar;
    return {
      op: 'atomic',
      fn: name as Extract<Expr, { op: 'atomic' }>['fn'],
      pointer,
      args: rest,
      type,
      span: this.span(node),
    };
  }

  /** Lowers an assignment target; reports what cannot be written. */
  target(input: AssignmentTarget | Expression): Expr | null {
    const node = unwrap(input as Expression);
    if (node.type !== 'Identifier' && node.type !== 'MemberExpression') {
      return this.fail(codes.notAssignable, node, `\`${this.text(node)}\` cannot be assigned to`);
    }
    const e = this.expr(node);
    if (!e) return null;
    if (e.type.kind === 'atomic') {
      return this.fail(
        codes.badAtomic,
        node,
        `\`${this.text(node)}\` is atomic: write it with atomicStore`,
        `write atomicStore(${this.text(node)}, value)`,
      );
    }
    if (e.op === 'swizzle' && e.components.length > 1) {
      return this.fail(
        codes.notAssignable,
        node,
        'WGSL assigns one vector component at a time',
        'assign the whole vector, or each component',
      );
    }
    const root = rootOf(e);
    const why = this.unwritable(root, node);
    if (why) return this.fail(codes.notAssignable, node, why.message, why.hint);
    return e;
  }

  private unwritable(root: Expr, node: Expression): { message: string; hint?: string } | null {
    const name = this.text(rootNode(node));
    switch (root.op) {
      case 'local': {
        const b = this.scopes.lookup(name);
        if (b?.kind !== 'local') return null;
        if (b.parameter) {
          return {
            message: `parameter \`${name}\` cannot be assigned to (WGSL parameters are immutable)`,
            hint: `copy it first: let ${name}Copy = ${name};`,
          };
        }
        return b.mutable
          ? null
          : { message: `\`${name}\` is a const`, hint: `declare it with let: let ${name} = ...` };
      }
      case 'param':
        if (root.type.kind === 'array' && root.type.length === 0) {
          return this.readOnlyAccessor(root.name)
            ? {
                message: `accessor \`${name}\` is read-only`,
                hint: "declare it with accessor(T, 'write') or accessor(T, 'read_write')",
              }
            : null;
        }
        return {
          message: `kernel argument \`${name}\` cannot be assigned to`,
          hint: `copy it first: let ${name}Copy = ${name};`,
        };
      case 'workgroupArray':
      case 'deviceGlobal':
        return null;
      case 'specConstant':
        return { message: 'a specialization constant cannot be assigned to in device code' };
      default:
        return { message: `\`${this.text(node)}\` is not a place that can be assigned to` };
    }
  }
}

/**
 * WGSL rejects, at shader creation, integer division by a constant zero and shifts by a
 * constant of at least the bit width.
 */
export function invalidConstantOperand(op: string, left: DataType, right: Expr): string | null {
  if (right.op !== 'literal' || typeof right.value !== 'number') return null;
  const s = scalarOf(left);
  if ((op === '/' || op === '%') && isInteger(s) && right.value === 0) {
    return `integer ${op === '/' ? 'division' : 'remainder'} by a constant zero is invalid in WGSL`;
  }
  if ((op === '<<' || op === '>>') && right.value >= 32) {
    return `a shift by ${right.value} is invalid in WGSL: the amount must be less than 32`;
  }
  return null;
}

/** The declaration an lvalue chain starts from. */
export function rootOf(e: Expr): Expr {
  let cur = e;
  while (cur.op === 'index' || cur.op === 'member' || cur.op === 'swizzle') cur = cur.base;
  return cur;
}

function rootNode(node: Expression): Expression {
  let cur = unwrap(node);
  while (cur.type === 'MemberExpression') {
    if (!cur.computed && cur.property.type === 'Identifier' && cur.property.name === 'value') {
      return cur.object;
    }
    cur = unwrap(cur.object);
  }
  return cur;
}

/** An accessor's type in expressions: a runtime-sized array, written as length 0. */
export const runtimeArray = (element: DataType): DataType => ({
  kind: 'array',
  element,
  length: 0,
});

/** A workgroup array's type: length 0 when a specialization constant sizes it. */
export function workgroupArrayType(decl: { element: DataType; length: Expr }): DataType {
  return {
    kind: 'array',
    element: decl.element,
    length:
      decl.length.op === 'literal' && typeof decl.length.value === 'number' ? decl.length.value : 0,
  };
}

function indexableLength(t: DataType): number | null {
  if (t.kind === 'array') return t.length;
  if (t.kind === 'vector') return t.size;
  if (t.kind === 'matrix') return t.columns;
  return null;
}

function elementType(t: DataType): DataType {
  if (t.kind === 'array') return t.element;
  if (t.kind === 'vector') return scalarType(t.component);
  if (t.kind === 'matrix') return vectorType('f32', t.rows);
  return t;
}

function splat(e: Expr, vector: DataType): Expr {
  return { op: 'construct', args: [e], type: vector, span: e.span };
}

function hintFor(
  value: { value: number; float: boolean },
  s: ScalarName | null,
): string | undefined {
  if (value.float && isInteger(s)) return `write ${s}(${value.value}) to truncate it`;
  if (s === 'u32' && value.value < 0) return 'u32 values are never negative; use i32';
  return undefined;
}

export function conversionHint(from: DataType, to: DataType, text: string): string | undefined {
  const fs = scalarOf(from);
  const ts = scalarOf(to);
  if (from.kind === 'scalar' && to.kind === 'scalar' && ts === 'bool' && fs !== 'bool') {
    return `compare explicitly: ${text} !== 0`;
  }
  if (from.kind === 'scalar' && to.kind === 'scalar' && fs !== ts && ts !== null) {
    return `convert explicitly: ${ts}(${text})`;
  }
  if (from.kind === 'vector' && to.kind === 'vector' && from.size === to.size && ts !== null) {
    return `convert explicitly: vec${to.size}${ts === 'f32' ? 'f' : ts === 'i32' ? 'i' : ts === 'u32' ? 'u' : ts === 'f16' ? 'h' : 'b'}(${text})`;
  }
  return undefined;
}

function describeNode(type: string): string {
  const names: Record<string, string> = {
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
  return names[type] ?? `\`${type}\``;
}
