/**
 * The WGSL namer: every identifier in the emitted WGSL comes from a `Namer`, which owns WGSL's
 * reserved words and built-in names and hands out each name once. Module-scope names are chosen
 * by the linker (a prefix per kind: `sc_`, `dg_`, `fn_`, `k_`, ...); the emitter names each
 * function's locals and parameters, and each struct's fields, with a namer that starts from the
 * taken module-scope names, so a local never hides a module-scope declaration or a generated
 * name. A source name that is already a free WGSL identifier is kept as it is.
 */

import { WGSL_FUNCTIONS } from '../builtins/wgsl-functions.js';

/** Generated function-scope names of entry points. */
const ENTRY_LOCALS = [
  'gid',
  'lid',
  'wid',
  'wgid',
  'lindex',
  'sg_lid',
  'sg_size',
  'sg_id',
  'sg_count',
] as const;

/**
 * The launch slot: a local of entry points, and the last parameter of functions that read
 * specialization constants in the emulated variant.
 */
export const LAUNCH_SLOT = 'slot';
/** The member of an emulation record held as words (`LinkedImage.emulation.inWords`). */
export const EMULATION_WORDS = 'w';

/** Generated struct field names of the `launch` uniform. */
export const LAUNCH_FIELDS = {
  globalRange: 'global_range',
  slotMode: 'slot_mode',
  groupOffset: 'group_offset',
} as const;

/**
 * Module-scope names made while printing (struct types, named after their first use), after the
 * functions' names are chosen: function-scope names do not start with it.
 */
export const STRUCT_PREFIX = 'S_';

/** The same for the helper functions of built-ins (`H_js_round_f32`). */
export const HELPER_PREFIX = 'H_';

// WGSL keywords, reserved words, predeclared types and built-in functions (which a local of
// the same name would shadow; their list comes from the built-in table).
const WGSL_WORDS: ReadonlySet<string> = new Set(
  `alias break case const const_assert continue continuing default diagnostic discard else enable
false fn for if let loop override requires return struct switch true var while
NULL Self abstract active alignas alignof as asm asm_fragment async attribute auto await become
binding_array cast catch class co_await co_return co_yield coherent column_major common compile
compile_fragment concept const_cast consteval constexpr constinit crate debugger decltype delete
demote demote_to_helper do dynamic_cast enum explicit export extends extern external fallthrough
filter final finally friend from fxgroup get goto groupshared highp impl implements import inline
instanceof interface layout lowp macro macro_rules match mediump meta mod module move mut
mutable namespace new nil noexcept noinline nointerpolation non_coherent noncoherent noperspective
null nullptr of operator package packoffset partition pass patch pixelfragment precise precision
premerge priv protected pub public readonly ref regardless register reinterpret_cast require
resource restrict self set shared sizeof smooth snorm static static_assert static_cast std
subroutine super target template this thread_local throw trait try type typedef typeid typename
typeof union unless unorm unsafe unsized use using varying virtual volatile wgsl where with
writeonly yield
bool i32 u32 f32 f16 vec2 vec3 vec4 mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4
array atomic ptr sampler sampler_comparison texture_1d texture_2d texture_3d texture_cube
vec2i vec3i vec4i vec2u vec3u vec4u vec2f vec3f vec4f vec2h vec3h vec4h
mat2x2f mat2x3f mat2x4f mat3x2f mat3x3f mat3x4f mat4x2f mat4x3f mat4x4f
read write read_write function private workgroup uniform storage
${ENTRY_LOCALS.join(' ')} ${LAUNCH_SLOT} ${Object.values(LAUNCH_FIELDS).join(' ')}`
    .split(/\s+/)
    .concat([...WGSL_FUNCTIONS]),
);

/**
 * A WGSL identifier close to `base`: characters WGSL identifiers cannot hold become `_`, a leading
 * run of `_` one (WGSL refuses a leading `__`), and a name that would start with a digit or be `_`
 * alone gets a `v_` in front. Not one to one: the namer's uniqueness makes names distinct.
 */
function sanitize(base: string): string {
  // Most names are already identifiers that start with a letter: they stay as they are.
  if (isPlainName(base)) return base;
  const text = base.replace(/[^A-Za-z0-9_]/g, '_').replace(/^_+/, '_');
  return text === '' || text === '_' || /^[0-9]/.test(text) ? `v_${text}` : text;
}

/** `[A-Za-z][A-Za-z0-9_]*`: a name `sanitize` returns unchanged. */
function isPlainName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (!letter && (i === 0 || !((c >= 48 && c <= 57) || c === 95))) return false;
  }
  return true;
}

const NO_PREFIXES: readonly string[] = [];
const INNER_PREFIXES: readonly string[] = [STRUCT_PREFIX, HELPER_PREFIX];
const NO_NAMES: readonly string[] = [];

/**
 * Hands out WGSL identifiers, each once: a name is never a WGSL word, never one taken here or
 * in the namer it was derived from, and never starts with a refused prefix.
 */
export class Namer {
  /** The names taken here. */
  readonly #taken = new Set<string>();
  /** Set once an inner namer reads this one's names: this one hands out no more. */
  #hasInner = false;

  private constructor(
    private readonly refusedPrefixes: readonly string[],
    /**
     * Names avoided without being copied here: the parent namer's (of an inner namer), or a
     * set given to `over`.
     */
    private readonly outer: Namer | ReadonlySet<string> | null,
  ) {}

  /** A namer for module-scope names (or a struct's fields), `taken` already in use. */
  static module(taken: Iterable<string> = NO_NAMES): Namer {
    const namer = new Namer(NO_PREFIXES, null);
    for (const name of taken) namer.#taken.add(name);
    return namer;
  }

  /**
   * `module(taken)` for a set the caller keeps: the namer reads `taken` in place instead of
   * copying it, so the set must not change while the namer is in use.
   */
  static over(taken: ReadonlySet<string>): Namer {
    return new Namer(NO_PREFIXES, taken);
  }

  /**
   * A namer for a function inside this module: its names avoid every name taken here so far
   * (and the generated locals, which are WGSL words here), and never start with `STRUCT_PREFIX`
   * or `HELPER_PREFIX`. It consults this namer's names instead of copying them, so this namer
   * hands out no more names once it has an inner one.
   */
  inner(): Namer {
    this.#hasInner = true;
    return new Namer(INNER_PREFIXES, this);
  }

  /** The names handed out so far (and those given as taken), with those avoided in place. */
  get taken(): ReadonlySet<string> {
    const outer = this.outer;
    if (outer === null) return this.#taken;
    return new Set([...(outer instanceof Namer ? outer.taken : outer), ...this.#taken]);
  }

  #isTaken(name: string): boolean {
    if (this.#taken.has(name)) return true;
    const outer = this.outer;
    if (outer === null) return false;
    return outer instanceof Namer ? outer.#isTaken(name) : outer.has(name);
  }

  #isFree(name: string): boolean {
    return !this.#isTaken(name) && !WGSL_WORDS.has(name);
  }

  /**
   * A fresh name for `base`: `base` itself (sanitized) or, when that is not free, the same with
   * `_2`, `_3`, ...; `derived` are extra names the caller builds from the result (e.g. override
   * leaves) that must be free as well, and are taken with it.
   */
  call(base: string, derived?: (name: string) => readonly string[]): string {
    if (this.#hasInner) throw new Error(`namer: '${base}' named after an inner namer was made`);
    let stem = sanitize(base);
    for (const prefix of this.refusedPrefixes) {
      if (stem.startsWith(prefix)) {
        stem = `l_${stem}`;
        break;
      }
    }
    for (let n = 1; ; n++) {
      const name = n === 1 ? stem : `${stem}_${n}`;
      if (!this.#isFree(name)) continue;
      const extra = derived === undefined ? NO_NAMES : derived(name);
      if (!extra.every((x) => this.#isFree(x))) continue;
      this.#taken.add(name);
      for (const x of extra) this.#taken.add(x);
      return name;
    }
  }
}

/**
 * User text (module paths, symbolic IDs, kernel names) as it may appear inside a WGSL line
 * comment: every control character (WGSL's line breaks among them), U+2028/U+2029 and `\`
 * are written as a `\u{...}` escape, so the text can never end the comment and the escaped
 * form reads back to one text only.
 */
export function commentText(text: string): string {
  // Text with nothing to escape (the usual) is the comment text as it is.
  if (!hasEscaped(text)) return text;
  let out = '';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    const escaped =
      code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
    out += escaped || c === '\\' ? `\\u{${code.toString(16)}}` : c;
  }
  return out;
}

/** Whether `text` holds a code unit that commentText escapes. */
function hasEscaped(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || c === 0x5c) {
      return true;
    }
  }
  return false;
}
