/**
 * A linear look at the text before the parser sees it. oxc-parser is native code that recurses
 * on nesting and cannot recover from exhausting its stack: the process dies (about 5,900
 * nested parentheses, 6,500 `if (a)` without braces, 29,000 unary operators or 65,000 terms of
 * one operator chain on an 8 MiB stack; half that in a worker thread). So the scan bounds the
 * parser's recursion from above: each open bracket costs one level, and so does every token of
 * a statement that is still going on where a bracket opens. A statement ends at `;`, at `,`, at
 * a block's `}` not followed by `else`, and at a line break where JavaScript inserts a
 * semicolon. Strings, template literals, regular expressions and comments are read as such.
 */

/** The most levels the parser may be asked to recurse: a sixth of what crashes it on 8 MiB. */
export const MAX_PARSE_NESTING = 1000;

enum Opener {
  Paren = 1,
  Bracket = 2,
  Brace = 3,
  /** `{` of a statement block: closing it ends the statement it belongs to. */
  Block = 4,
  /** `${` of a template literal: closing it goes back to the template's text. */
  Substitution = 5,
}

/** What the last token was, for the choices that depend on it. */
enum Last {
  /** Start of text, `;`, `,`, an opening bracket or an operator: an operand may follow. */
  Operator = 0,
  /** An identifier, literal or closed group: a line break after it may end the statement. */
  Operand = 1,
  /** `)` of an `if`/`for`/`while`/`with` header, or `else`/`do`: a statement follows. */
  Header = 2,
}

enum Class {
  Other = 0,
  Space = 1,
  LineBreak = 2,
  /** Identifier characters (and digits): `[A-Za-z0-9_$\\]`, and any beyond ASCII. */
  Word = 3,
}

/** The class of each ASCII character (beyond ASCII, see the scan). */
const CLASSES = new Uint8Array(128);
for (const c of [32, 9, 11, 12]) CLASSES[c] = Class.Space;
for (const c of [10, 13]) CLASSES[c] = Class.LineBreak;
for (let c = 0; c < 128; c++) {
  const alphanumeric = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
  if (alphanumeric || c === 95 || c === 36 || c === 92) CLASSES[c] = Class.Word;
}

/** Words that change how the scan reads what follows them (see `wordKind`). */
enum Word {
  Other = 0,
  /** `return`, `typeof`, `new`, `in`, ...: an operand follows. */
  Operator = 1,
  /** `else`, `do`: a statement follows. */
  Statement = 2,
  /** `if`, `for`, `while`, `with`: the `(` after it is a statement header. */
  Header = 3,
  /** `await`: an operand follows; after `for`, its `(` is still a header. */
  Await = 4,
  /** `as`, `satisfies`: after a line break, the statement goes on. */
  Continues = 5,
}

const WORDS: readonly (readonly [string, Word])[] = [
  ['do', Word.Statement],
  ['else', Word.Statement],
  ['in', Word.Operator],
  ['of', Word.Operator],
  ['new', Word.Operator],
  ['void', Word.Operator],
  ['case', Word.Operator],
  ['throw', Word.Operator],
  ['yield', Word.Operator],
  ['await', Word.Await],
  ['return', Word.Operator],
  ['typeof', Word.Operator],
  ['delete', Word.Operator],
  ['instanceof', Word.Operator],
  ['if', Word.Header],
  ['for', Word.Header],
  ['while', Word.Header],
  ['with', Word.Header],
  ['as', Word.Continues],
  ['satisfies', Word.Continues],
];
/** The longest word of WORDS (all are lowercase ASCII letters). */
const LONGEST_WORD = 10;

/**
 * WORDS by first letter and length: at each slot, the words there (a flat list of word and
 * kind), or none.
 */
const WORD_SLOTS: ((string | Word)[] | undefined)[] = [];
for (const [word, kind] of WORDS) {
  const at = slot(word.charCodeAt(0), word.length);
  const words = WORD_SLOTS[at] ?? [];
  words.push(word, kind);
  WORD_SLOTS[at] = words;
}

function slot(first: number, length: number): number {
  return (first - 97) * (LONGEST_WORD + 1) + length;
}

/**
 * What the word `source[start, end)` is to the scan, found by its first letter and length: no
 * string is made for it.
 */
function wordKind(source: string, start: number, end: number): Word {
  const length = end - start;
  const first = source.charCodeAt(start);
  if (length < 2 || length > LONGEST_WORD || first < 97 || first > 122) return Word.Other;
  const candidates = WORD_SLOTS[slot(first, length)];
  if (candidates === undefined) return Word.Other;
  for (let k = 0; k < candidates.length; k += 2) {
    if (source.startsWith(candidates[k] as string, start)) return candidates[k + 1] as Word;
  }
  return Word.Other;
}

// The scan's stacks, one entry per open bracket: reused by every scan (it is synchronous and
// never reentered), each entry written when its bracket opens.
const openers = new Uint8Array(MAX_PARSE_NESTING + 2);
/** Tokens of the statement in progress at each depth. */
const chain = new Int32Array(MAX_PARSE_NESTING + 2);
const headers = new Uint8Array(MAX_PARSE_NESTING + 2);

/**
 * The offset where the text nests deeper than MAX_PARSE_NESTING levels, or null. The count
 * only errs upwards: a mismatched closing bracket is ignored.
 *
 * One loop over the text's code units, with no closure and few calls, that makes no string:
 * the scan runs on every module before its parse, so the time to compile it to machine code
 * counts as much as the time it runs.
 */
export function parseNestingOverflow(source: string): number | null {
  const n = source.length;
  let depth = 0;
  chain[0] = 0;
  /** Open brackets plus the tokens of every statement in progress around them. */
  let levels = 0;
  let last: Last = Last.Operator;
  let lineBreak = false;
  let blockClosed = false;
  /** The last word was `if`, `for`, `while` or `with`: its `(` is a statement header. */
  let headerWord = false;
  let i = 0;

  while (i < n) {
    const c = source.charCodeAt(i);
    const k =
      c < 128
        ? CLASSES[c]!
        : c === 0xa0 || c === 0xfeff
          ? Class.Space
          : c === 0x2028 || c === 0x2029
            ? Class.LineBreak
            : Class.Word;
    // Whitespace and line breaks.
    if (k === Class.Space) {
      i++;
      continue;
    }
    if (k === Class.LineBreak) {
      lineBreak = true;
      i++;
      continue;
    }
    if (c === 47 /* / */) {
      const next = source.charCodeAt(i + 1);
      if (next === 47) {
        while (i < n && !isLineBreak(source.charCodeAt(i))) i++;
        continue;
      }
      if (next === 42 /* * */) {
        const end = source.indexOf('*/', i + 2);
        const stop = end < 0 ? n : end + 2;
        for (let j = i + 2; j < stop; j++) if (isLineBreak(source.charCodeAt(j))) lineBreak = true;
        i = stop;
        continue;
      }
    }

    if (k === Class.Word) {
      const start = i;
      const number = c >= 48 && c <= 57;
      // The rest of the word: identifier characters (any beyond ASCII), and a number's dots.
      for (i++; i < n; i++) {
        const d = source.charCodeAt(i);
        if (d < 128 && CLASSES[d] !== Class.Word && !(number && d === 46)) break;
      }
      const kind = number ? Word.Other : wordKind(source, start, i);
      // First settle whether the statement before it ended.
      if (blockClosed) {
        blockClosed = false;
        if (kind !== Word.Statement || source.charCodeAt(start) !== 101 /* else */) {
          levels -= chain[depth]!;
          chain[depth] = 0;
        }
      } else if (
        lineBreak &&
        last === Last.Operand &&
        !(kind === Word.Continues || (kind === Word.Operator && isInOrInstanceof(source, start)))
      ) {
        levels -= chain[depth]!;
        chain[depth] = 0;
      }
      lineBreak = false;
      // `for await (...)` is a header as `for (...)` is.
      headerWord = kind === Word.Header || (headerWord && kind === Word.Await);
      last =
        kind === Word.Statement
          ? Last.Header
          : kind === Word.Operator || kind === Word.Await
            ? Last.Operator
            : Last.Operand;
      chain[depth]! += 1;
      if (++levels > MAX_PARSE_NESTING) return start;
      continue;
    }

    // A token other than a word: first settle whether the statement before it ended.
    if (blockClosed) {
      blockClosed = false;
      levels -= chain[depth]!;
      chain[depth] = 0;
    } else if (lineBreak && last === Last.Operand && (c === 34 || c === 39)) {
      levels -= chain[depth]!;
      chain[depth] = 0;
    }
    lineBreak = false;
    const header = headerWord;
    headerWord = false;
    if (c === 34 /* " */ || c === 39 /* ' */) {
      i = skipString(source, i, c);
      last = Last.Operand;
      chain[depth]! += 1;
      if (++levels > MAX_PARSE_NESTING) return i - 1;
      continue;
    }
    if (c === 96 /* ` */) {
      chain[depth]! += 1;
      if (++levels > MAX_PARSE_NESTING) return i;
      i = skipTemplateText(source, i + 1);
      if (source.charCodeAt(i - 1) === 123 /* { */ && source.charCodeAt(i - 2) === 36) {
        if (++levels > MAX_PARSE_NESTING) return i - 2;
        depth++;
        openers[depth] = Opener.Substitution;
        chain[depth] = 0;
        last = Last.Operator;
      } else {
        last = Last.Operand;
      }
      continue;
    }
    if (c === 47 && last !== Last.Operand) {
      // A regular expression literal, where an operand may stand.
      i = skipRegExp(source, i);
      last = Last.Operand;
      chain[depth]! += 1;
      if (++levels > MAX_PARSE_NESTING) return i - 1;
      continue;
    }
    if (c === 40 /* ( */ || c === 91 /* [ */ || c === 123 /* { */) {
      if (++levels > MAX_PARSE_NESTING) return i;
      // A `{` opens a block where no statement is in progress, or after a header.
      const opener =
        c === 40
          ? Opener.Paren
          : c === 91
            ? Opener.Bracket
            : last === Last.Operand
              ? Opener.Brace
              : last === Last.Header || (last === Last.Operator && chain[depth] === 0)
                ? Opener.Block
                : Opener.Brace;
      depth++;
      openers[depth] = opener;
      headers[depth] = header && c === 40 ? 1 : 0;
      chain[depth] = 0;
      last = Last.Operator;
      i++;
      continue;
    }
    if (c === 41 /* ) */ || c === 93 /* ] */ || c === 125 /* } */) {
      const opener = depth > 0 ? openers[depth]! : 0;
      const matches =
        c === 41
          ? opener === Opener.Paren
          : c === 93
            ? opener === Opener.Bracket
            : opener >= Opener.Brace;
      if (!matches) {
        i++;
        continue;
      }
      levels -= 1 + chain[depth]!;
      const wasHeader = headers[depth] === 1;
      depth--;
      if (opener === Opener.Substitution) {
        i = skipTemplateText(source, i + 1);
        if (source.charCodeAt(i - 1) === 123 && source.charCodeAt(i - 2) === 36) {
          levels++;
          depth++;
          openers[depth] = Opener.Substitution;
          chain[depth] = 0;
          last = Last.Operator;
        } else {
          last = Last.Operand;
        }
        continue;
      }
      // The closed group is one more token of the statement around it.
      chain[depth]! += 1;
      if (++levels > MAX_PARSE_NESTING) return i;
      blockClosed = opener === Opener.Block;
      // After a block statement another statement begins.
      last = wasHeader ? Last.Header : blockClosed ? Last.Operator : Last.Operand;
      i++;
      continue;
    }
    if (c === 59 /* ; */ || c === 44 /* , */) {
      levels -= chain[depth]!;
      chain[depth] = 0;
      last = Last.Operator;
      i++;
      continue;
    }
    // Any other character is an operator, or part of one: each counts.
    last = Last.Operator;
    chain[depth]! += 1;
    if (++levels > MAX_PARSE_NESTING) return i;
    i++;
  }
  return null;
}

/** `in` or `instanceof`: the Word.Operator words that go on a statement after a line break. */
function isInOrInstanceof(source: string, start: number): boolean {
  return source.charCodeAt(start) === 105 && source.charCodeAt(start + 1) === 110;
}

function isLineBreak(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

function skipString(source: string, i: number, quote: number): number {
  let j = i + 1;
  while (j < source.length) {
    const c = source.charCodeAt(j);
    if (c === quote) return j + 1;
    if (isLineBreak(c)) return j;
    j += c === 92 ? 2 : 1;
  }
  return j;
}

/** From inside a template's text: the offset after its closing backtick or after a `${`. */
function skipTemplateText(source: string, i: number): number {
  let j = i;
  while (j < source.length) {
    const c = source.charCodeAt(j);
    if (c === 96) return j + 1;
    if (c === 36 && source.charCodeAt(j + 1) === 123) return j + 2;
    j += c === 92 ? 2 : 1;
  }
  return j;
}

function skipRegExp(source: string, i: number): number {
  let j = i + 1;
  let inClass = false;
  while (j < source.length) {
    const c = source.charCodeAt(j);
    if (isLineBreak(c)) return j;
    if (c === 92) {
      j += 2;
      continue;
    }
    if (c === 91) inClass = true;
    else if (c === 93) inClass = false;
    else if (c === 47 && !inClass) return j + 1;
    j++;
  }
  return j;
}
