/** Tokens of device code: how corpus modules are cut up and what mutations splice in. */
export const TOKEN =
  /[A-Za-z_$][\w$]*|0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:e[+-]?\d+)?|>>>=?|[=!]==?|[<>]=?|&&|\|\||\+\+|--|[-+*/%&|^<>]=|\*\*|=>|\s+|./g;

export const VOCABULARY: readonly string[] = [
  ...['f32', 'u32', 'i32', 'bool', 'f16', 'vec3f', 'vec2i', 'mat3x3f', 'array', 'struct', 'atomic'],
  ...['kernel', 'deviceFunction', 'deviceGlobal', 'specializationId', 'accessor', 'wgsl'],
  ...['item', 'kh', 'Math', 'getId', 'barrier', 'value', 'length', 'x', 'xyz', 'out', 'i'],
  ...['0', '1', '1.5', '-1', '4294967296', '2147483648', '1e40', '0x10', 'true', 'null'],
  ...['+', '-', '*', '/', '%', '<<', '>>>', '&&', '!', '~', '?', ':', '=', '+=', '++', '==='],
  ...['(', ')', '[', ']', '{', '}', ',', ';', '.', '`', '${', "'"],
  ...['return', 'if', 'for', 'let', 'const'],
];
