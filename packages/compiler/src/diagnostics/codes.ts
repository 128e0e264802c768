/**
 * Every diagnostic code, with the title of its entry in docs/errors.md (the heading reads
 * `### SYCL1012: type mismatch`, so the anchor is made from the table: `docsAnchor`). Codes are
 * stable: tests, docs and users refer to them. SYCL1xxx front end, SYCL2xxx link step, SYCL3xxx
 * CLI.
 */
export const CODES = {
  SYCL1000: 'internal compiler error',
  SYCL1001: 'syntax error',
  SYCL1002: 'declaration not at the top level',
  SYCL1003: 'not a DSL type',
  SYCL1004: 'an initial value that does not fit its type',
  SYCL1005: 'bad device global properties',
  SYCL1006: 'bad kernel spec',
  SYCL1007: 'bad device function spec',
  SYCL1008: 'an import the build cannot read',
  SYCL1010: 'syntax device code does not support',
  SYCL1011: 'unknown name',
  SYCL1012: 'type mismatch',
  SYCL1013: 'a literal that does not fit',
  SYCL1014: 'bad call',
  SYCL1015: 'assignment to something read-only',
  SYCL1016: 'no such member',
  SYCL1017: 'bad index',
  SYCL1018: 'bad control flow',
  SYCL1019: 'bad raw WGSL body',
  SYCL1020: 'atomics used wrongly',
  SYCL1021: 'barrier outside an nd-range kernel',
  SYCL1022: 'recursion in a module',
  SYCL1023: 'duplicate declaration',
  SYCL1024: 'an invalid constant operation',
  SYCL1025: 'a bit operation on an f32 atomic',
  SYCL1026: 'an operator TypeScript does not have for its operands',
  SYCL1030: 'group functions used wrongly',
  SYCL1031: 'textures used wrongly',
  SYCL1032: 'console.log used wrongly',
  SYCL1033: 'unroll used wrongly',
  SYCL1040: 'a joint matrix outside an nd-range kernel',
  SYCL1041: 'a joint matrix declared wrongly',
  SYCL1042: 'a joint matrix used as a value',
  SYCL1043: 'joint matrix operands that do not fit',
  SYCL1044: 'joint matrix memory of the wrong kind',
  SYCL1050: "locals over WGSL's function memory",
  SYCL1051: 'an array literal longer than WGSL allows',
  SYCL1052: 'a struct with more fields than WGSL allows',
  SYCL1053: 'a device function with more parameters than WGSL allows',
  SYCL1054: 'a type nested deeper than WGSL allows',
  SYCL2001: 'a `deviceImageScope` global used by several images',
  SYCL2002: 'an emulated constant sizes a workgroup',
  SYCL2003: 'an emulated constant sizes a workgroup array',
  SYCL2004: 'a reference the link step cannot resolve',
  SYCL2005: 'a declaration of the wrong kind',
  SYCL2006: 'a type that cannot live where it is used',
  SYCL2007: 'a size that is not a constant',
  SYCL2008: 'recursion across modules',
  SYCL2009: 'native composite constants too large',
  SYCL2010: 'more constant leaves than `@id` values',
  SYCL2020: 'a barrier or group function not every item of the work-group reaches',
  SYCL2021: 'a kernel over a WebGPU limit',
  SYCL2022: 'a device global too large to bind',
  SYCL2023: 'a function at the parameter limit that takes a launch slot',
  SYCL2026: 'a call that does not match its callee',
  SYCL3001: 'a source the CLI cannot read',
  SYCL3002: 'no program for `syclts inspect`',
  SYCL3003: 'a source outside the root',
} as const;

export type Code = keyof typeof CODES;

/**
 * What a diagnostic says, made by one function of the messages modules (`frontend-messages.ts`,
 * `link-messages.ts`, `cli-messages.ts`) from the facts of the problem; the stage that finds
 * the problem adds where it is.
 */
export interface Message {
  readonly code: Code;
  readonly message: string;
  /** What to write instead. */
  readonly hint?: string;
}

/** A message; `hint` is left out when there is none. */
export function message(code: Code, text: string, hint?: string): Message {
  return hint === undefined ? { code, message: text } : { code, message: text, hint };
}

/** The entry of `code` in docs/errors.md, as a path below docs/ with the heading's anchor. */
export function docsAnchor(code: Code): string {
  return `errors.md#${headingAnchor(`${code}: ${CODES[code]}`)}`;
}

/**
 * The anchor GitHub gives a Markdown heading (github-slugger's rule): lower case, every
 * character but letters, marks, digits, `_`, `-` and spaces dropped (so `` ` ``, `:`, `'` and
 * `@` go), each space a `-`.
 */
export function headingAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}
