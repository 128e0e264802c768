/**
 * Texture built-ins (the DSL's `TEXTURE_TABLE`) and SYCL's image accessor methods `read` and
 * `write`: the handles must be the kernel's texture arguments, of a kind and shape the built-in
 * takes, and the other arguments have the types WGSL's overloads give them.
 */
import {
  type DataType,
  TEXTURE_TABLE,
  type TextureArgType,
  type TextureDimension,
  type TextureFunctionName,
  texelScalar,
} from '@syclts/dsl';
import type { CallExpression } from 'oxc-parser';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { Expr, UpdateStmt } from '../../ir/device-code.js';
import { type Expression, unwrap } from '../ast.js';
import { F32, I32, isInteger, scalarOf, U32, vectorType } from '../resolver/types.js';
import { constantOf, fail, type Lowering, spanOf, textOf } from './context.js';
import { lowerValue, lowerValueOf } from './expressions.js';

type TextureParam = { readonly name: string; readonly texture: TextureArgType };

export const TEXTURE_FUNCTIONS: ReadonlySet<string> = new Set(Object.keys(TEXTURE_TABLE));

const KIND_NAMES: Record<TextureArgType['kind'], string> = {
  texture: 'sampled texture',
  storageTexture: 'storage texture',
  sampler: 'sampler',
  externalTexture: 'external texture',
};

/** The kernel's texture argument `node` names, if it names one. */
export function textureParam(cx: Lowering, node: Expression): TextureParam | null {
  const n = unwrap(node);
  if (n.type !== 'Identifier') return null;
  const b = cx.scopes.lookup(n.name);
  return b?.kind === 'kernelArg' && b.param.kind === 'texture' ? b.param : null;
}

export function describeTexture(t: TextureArgType): string {
  return KIND_NAMES[t.kind];
}

function coordCount(d: TextureDimension): 1 | 2 | 3 {
  return d === '1d' ? 1 : d === '2d' || d === '2d-array' ? 2 : 3;
}

const layered = (d: TextureDimension) => d === '2d-array' || d === 'cube-array';

/** One argument after the handles: integer (i32 or u32) or f32, of `n` components. */
type Operand = { readonly what: string; readonly float: boolean; readonly n: 1 | 2 | 3 };

const int = (what: string, n: 1 | 2 | 3 = 1): Operand => ({ what, float: false, n });
const float = (what: string, n: 1 | 2 | 3 = 1): Operand => ({ what, float: true, n });

/**
 * What follows the handles, by the built-in and the texture; `after` is how many arguments the
 * call gives there (`textureDimensions` of a sampled texture takes an optional mip level).
 */
function operands(fn: TextureFunctionName, t: TextureArgType, after: number): Operand[] {
  const dim = t.kind === 'texture' || t.kind === 'storageTexture' ? t.dimension : '2d';
  const n = coordCount(dim);
  const layer = layered(dim) ? [int('array index')] : [];
  switch (fn) {
    case 'textureDimensions':
      return t.kind === 'texture' && after === 1 ? [int('mip level')] : [];
    case 'textureNumLevels':
    case 'textureNumLayers':
      return [];
    case 'textureLoad':
      if (t.kind === 'externalTexture') return [int('coordinates', 2)];
      return [int('coordinates', n), ...layer, ...(t.kind === 'texture' ? [int('mip level')] : [])];
    case 'textureStore':
      return [int('coordinates', n), ...layer];
    case 'textureSampleLevel':
      return [float('coordinates', n), ...layer, float('mip level')];
    case 'textureSampleGrad':
      return [float('coordinates', n), ...layer, float('ddx', n), float('ddy', n)];
    case 'textureGather':
      return [float('coordinates', n), ...layer];
    case 'textureSampleBaseClampToEdge':
      return [float('coordinates', 2)];
  }
}

function lowerOperand(
  cx: Lowering,
  fn: string,
  op: Operand,
  node: Expression,
  position: number,
): Expr | null {
  const subject = { kind: 'argument', position, callee: fn } as const;
  if (op.float) {
    return lowerValueOf(cx, node, op.n === 1 ? F32 : vectorType('f32', op.n), subject);
  }
  // A literal coordinate or level is an i32, as WGSL's abstract integers become.
  const e = constantOf(cx, node) ? lowerValueOf(cx, node, I32, subject) : lowerValue(cx, node);
  if (!e) return null;
  const fits =
    isInteger(scalarOf(e.type)) &&
    (op.n === 1 ? e.type.kind === 'scalar' : e.type.kind === 'vector' && e.type.size === op.n);
  if (!fits) {
    const expected = op.n === 1 ? 'an i32 or a u32' : `a vec${op.n}i or a vec${op.n}u`;
    return fail(cx, node, msg.textureArgumentType(fn, op.what, expected, e.type, textOf(cx, node)));
  }
  return e;
}

/** The handle at `node`, of a kind and shape `fn` takes. */
function handleFor(
  cx: Lowering,
  fn: TextureFunctionName,
  node: Expression | undefined,
  call: CallExpression,
): TextureParam | null {
  const entry = TEXTURE_TABLE[fn];
  const takes = entry.takes
    .map((k) => `${KIND_NAMES[k].startsWith('e') ? 'an' : 'a'} ${KIND_NAMES[k]}`)
    .join(' or ');
  if (!node) return fail(cx, call, msg.textureArity(fn, entry.signature, call.arguments.length));
  const param = textureParam(cx, node);
  const t = param?.texture;
  if (
    !param ||
    !t ||
    t.kind === 'sampler' ||
    !(entry.takes as readonly string[]).includes(t.kind)
  ) {
    return fail(cx, node, msg.notATextureArgument(fn, takes, textOf(cx, node)));
  }
  if (t.kind === 'texture' || t.kind === 'storageTexture') {
    // The table's shapes; storage textures have no cube shapes.
    const allowed: readonly string[] =
      t.kind === 'storageTexture'
        ? entry.dimensions.filter((d) => d !== 'cube' && d !== 'cube-array')
        : entry.dimensions;
    if (!allowed.includes(t.dimension)) {
      return fail(cx, node, msg.textureShape(fn, param.name, t.dimension, allowed));
    }
  }
  if (t.kind === 'storageTexture') {
    const writes = fn === 'textureStore';
    if ((writes && t.access === 'read') || (fn === 'textureLoad' && t.access === 'write')) {
      return fail(cx, node, msg.textureAccess(fn, param.name, t.access));
    }
  }
  return param;
}

function resultType(fn: TextureFunctionName, t: TextureArgType): DataType {
  const dim = t.kind === 'texture' || t.kind === 'storageTexture' ? t.dimension : '2d';
  switch (fn) {
    case 'textureDimensions':
      return dim === '1d' ? U32 : vectorType('u32', dim === '3d' ? 3 : 2);
    case 'textureNumLevels':
    case 'textureNumLayers':
      return U32;
    case 'textureLoad':
    case 'textureGather':
      return vectorType(
        t.kind === 'texture'
          ? t.sampleType
          : t.kind === 'storageTexture'
            ? texelScalar(t.format)
            : 'f32',
        4,
      );
    default:
      return vectorType('f32', 4);
  }
}

/**
 * A texture built-in's arguments, checked: the component of `textureGather`, the handles, the
 * operands; `texel` for `textureStore`.
 */
function lowerTextureArgs(
  cx: Lowering,
  fn: TextureFunctionName,
  args: readonly Expression[],
  node: CallExpression,
  /** The last operand, when the call implies it (`read`'s mip level 0). */
  implied: Expr | null = null,
): { texture: TextureParam; sampler: string | null; args: Expr[] } | null {
  const entry = TEXTURE_TABLE[fn];
  const lowered: Expr[] = [];
  let at = 0;
  if (fn === 'textureGather') {
    const c = args[0] ? constantOf(cx, args[0]) : null;
    if (!args[0]) return fail(cx, node, msg.textureArity(fn, entry.signature, args.length));
    if (c?.kind !== 'number' || !Number.isInteger(c.value) || c.value < 0 || c.value > 3) {
      return fail(cx, args[0], msg.gatherComponent(textOf(cx, args[0])));
    }
    lowered.push({ op: 'literal', value: c.value, type: U32, span: spanOf(cx, args[0]) });
    at = 1;
  }
  const texture = handleFor(cx, fn, args[at], node);
  if (!texture) return null;
  at++;
  let sampler: string | null = null;
  if (entry.sampler) {
    const s = args[at] ? textureParam(cx, args[at]!) : null;
    if (!args[at] || s?.texture.kind !== 'sampler') {
      return fail(
        cx,
        args[at] ?? node,
        msg.notATextureArgument(fn, 'a sampler', args[at] ? textOf(cx, args[at]!) : ''),
      );
    }
    if (
      texture.texture.kind === 'texture' &&
      texture.texture.sampleType !== 'f32' &&
      fn !== 'textureGather'
    ) {
      return fail(
        cx,
        args[at - 1]!,
        msg.textureArgumentType(
          fn,
          'a texture',
          'one of f32 texels',
          vectorType(texture.texture.sampleType, 4),
          textOf(cx, args[at - 1]!),
        ),
      );
    }
    sampler = s.name;
    at++;
  }
  const ops = operands(fn, texture.texture, args.length - at);
  if (implied) ops.pop();
  const t = texture.texture;
  const texel =
    fn === 'textureStore' && t.kind === 'storageTexture'
      ? vectorType(texelScalar(t.format), 4)
      : null;
  if (args.length - at !== ops.length + (texel ? 1 : 0)) {
    return fail(cx, node, msg.textureArity(fn, entry.signature, args.length));
  }
  for (const op of ops) {
    const e = lowerOperand(cx, fn, op, args[at]!, at + 1);
    if (!e) return null;
    lowered.push(e);
    at++;
  }
  if (texel) {
    const subject = { kind: 'argument', position: at + 1, callee: fn } as const;
    const e = lowerValueOf(cx, args[at]!, texel, subject);
    if (!e) return null;
    lowered.push(e);
  }
  if (implied) lowered.push(implied);
  return { texture, sampler, args: lowered };
}

export function lowerTextureCall(
  cx: Lowering,
  fn: TextureFunctionName,
  args: readonly Expression[],
  node: CallExpression,
  implied: Expr | null = null,
): Expr | null {
  if (fn === 'textureStore') return fail(cx, node, msg.textureStoreAsValue());
  const call = lowerTextureArgs(cx, fn, args, node, implied);
  if (!call) return null;
  return {
    op: 'texture',
    fn,
    texture: call.texture.name,
    sampler: call.sampler,
    args: call.args,
    type: resultType(fn, call.texture.texture),
    span: spanOf(cx, node),
  };
}

export function lowerTextureStore(
  cx: Lowering,
  args: readonly Expression[],
  node: CallExpression,
): UpdateStmt | null {
  const call = lowerTextureArgs(cx, 'textureStore', args, node);
  if (!call) return null;
  return {
    kind: 'textureStore',
    texture: call.texture.name,
    args: call.args,
    span: spanOf(cx, node),
  };
}

/**
 * SYCL's image accessor methods on a 1d, 2d or 3d texture: `read(coords)` is `textureLoad` (mip
 * level 0 of a sampled texture), `write(coords, texel)` is `textureStore`.
 */
export function lowerTextureMethod(
  cx: Lowering,
  param: TextureParam,
  method: string,
  args: readonly Expression[],
  node: CallExpression,
  statement: boolean,
): Expr | UpdateStmt | null {
  const t = param.texture;
  const shaped =
    (t.kind === 'texture' || t.kind === 'storageTexture') &&
    !layered(t.dimension) &&
    t.dimension !== 'cube';
  const callee = unwrap(node.callee);
  const handle = callee.type === 'MemberExpression' ? callee.object : callee;
  if (shaped && method === 'read') {
    if (args.length !== 1)
      return fail(
        cx,
        node,
        msg.textureArity(`${param.name}.read`, `${param.name}.read(coords)`, args.length),
      );
    const level: Expr | null =
      t.kind === 'texture' ? { op: 'literal', value: 0, type: I32, span: spanOf(cx, node) } : null;
    return lowerTextureCall(cx, 'textureLoad', [handle as Expression, args[0]!], node, level);
  }
  if (shaped && method === 'write' && t.kind === 'storageTexture') {
    if (!statement) return fail(cx, node, msg.textureStoreAsValue());
    if (args.length !== 2)
      return fail(
        cx,
        node,
        msg.textureArity(`${param.name}.write`, `${param.name}.write(coords, texel)`, args.length),
      );
    return lowerTextureStore(cx, [handle as Expression, args[0]!, args[1]!], node);
  }
  return fail(cx, callee, msg.textureMethod(param.name, method, KIND_NAMES[t.kind]));
}
