/**
 * Whether raw WGSL text names f16: the type, its vector and matrix aliases, or a literal with the
 * `h` suffix. Its module then needs `enable f16;`, as when the printer writes an f16 itself.
 * Tokenized with the scanner the front end checked the body with, so comments do not count.
 */
/// <reference path="../../frontend/lower/wgsl-reflect.d.ts" />
import { WgslScanner } from 'wgsl_reflect/wgsl_reflect.module.js';

const F16_NAME = /^(f16|vec[234]h|mat[234]x[234]h)$/;

export function namesF16(text: string): boolean {
  const tokens = new WgslScanner(text).scanTokens();
  return tokens.some((token, i) => {
    const type = token.type.name;
    if (type === 'decimal_float_literal' || type === 'hex_float_literal') {
      return token.lexeme.endsWith('h');
    }
    // A member access (`p.f16`) names a field, not the type.
    return type === 'ident' && F16_NAME.test(token.lexeme) && tokens[i - 1]?.lexeme !== '.';
  });
}
