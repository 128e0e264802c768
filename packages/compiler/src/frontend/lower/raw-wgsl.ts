/**
 * Checks a raw WGSL function body (`(x) => wgsl`...``) at build time, with wgsl_reflect's WGSL
 * tokenizer: the body is spliced into the function as written, so a body that closes its
 * function early, declares at module scope or carries attributes would add bindings or
 * functions nobody declared, and a name it does not declare would fail only when the GPU
 * compiles it. Each problem is a diagnostic at its place in the `.sycl.ts` source.
 */
/// <reference path="./wgsl-reflect.d.ts" />
import { WgslScanner } from 'wgsl_reflect/wgsl_reflect.module.js';
import { WGSL_FUNCTIONS } from '../../builtins/wgsl-functions.js';
import type { Message } from '../../diagnostics/codes.js';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { Expression } from '../ast.js';

/** A template literal `wgsl`...`` as oxc gives it. */
type Template = Extract<Expression, { type: 'TemplateLiteral' }>;

export interface RawWgslProblem {
  /** Source offsets in the module of the offending text. */
  readonly start: number;
  readonly end: number;
  readonly message: Message;
}

/** What a compute body may call: WGSL's predeclared functions, and `f16` read as a name. */
const BUILTIN_FUNCTIONS: ReadonlySet<string> = new Set([...WGSL_FUNCTIONS, 'f16']);

/** Predeclared type aliases the tokenizer reports as identifiers (vec3f, mat4x4h, ...). */
const TYPE_ALIAS = /^(vec[234][fhiu]|mat[234]x[234][fh])$/;

/** Declarations that only exist at module scope. */
const MODULE_SCOPE = new Set(['fn', 'struct', 'alias', 'override', 'enable', 'requires']);

const CLOSERS: ReadonlyMap<string, string> = new Map([
  ['}', '{'],
  [')', '('],
  [']', '['],
]);

/**
 * Problems of the body `template`; `${...}` interpolations stand for names the compiler splices
 * in (parameters, constants, globals) and are fine wherever an identifier is.
 */
export function checkRawWgsl(template: Template): RawWgslProblem[] {
  // The body as the tokenizer sees it, each interpolation an identifier of its own, and where
  // each piece starts in the module's source.
  let text = '';
  const pieces: { at: number; source: number }[] = [];
  for (const [i, quasi] of template.quasis.entries()) {
    // A template element's span starts at the delimiter before its text (` or }).
    pieces.push({ at: text.length, source: quasi.start + 1 });
    text += quasi.value.raw;
    if (i < template.expressions.length) {
      const expression = template.expressions[i]!;
      pieces.push({ at: text.length, source: expression.start });
      text += ` __syclts_ref_${i} `;
    }
  }
  const toSource = (offset: number): number => {
    let piece = pieces[0]!;
    for (const p of pieces) if (p.at <= offset) piece = p;
    return piece.source + (offset - piece.at);
  };
  const problem = (start: number, end: number, message: Message): RawWgslProblem => ({
    start: toSource(start),
    end: toSource(end),
    message,
  });

  let tokens: ReturnType<WgslScanner['scanTokens']>;
  try {
    tokens = new WgslScanner(text).scanTokens();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [problem(0, text.length, msg.wgslTokens(message))];
  }
  const problems: RawWgslProblem[] = [];
  const declared = new Set<string>();
  const open: { lexeme: string; start: number; end: number }[] = [];
  for (const [i, token] of tokens.entries()) {
    const { lexeme, start, end } = token;
    const type = token.type.name;
    const previous = tokens[i - 1];
    // The name after an attribute or a module-scope keyword was reported with it.
    if (previous && (previous.type.name === 'attr' || MODULE_SCOPE.has(previous.lexeme))) {
      continue;
    }
    if (lexeme === '{' || lexeme === '(' || lexeme === '[') {
      open.push({ lexeme, start, end });
    } else if (CLOSERS.has(lexeme)) {
      const top = open.pop();
      if (!top) {
        problems.push(
          problem(
            start,
            end,
            lexeme === '}'
              ? msg.wgslClosesFunction()
              : msg.wgslUnopened(lexeme, CLOSERS.get(lexeme)!),
          ),
        );
        break;
      }
      if (top.lexeme !== CLOSERS.get(lexeme)) {
        problems.push(problem(start, end, msg.wgslMismatched(lexeme, top.lexeme)));
        break;
      }
    } else if (type === 'attr') {
      problems.push(problem(start, tokens[i + 1]?.end ?? end, msg.wgslAttribute()));
    } else if (MODULE_SCOPE.has(lexeme) && type !== 'ident') {
      problems.push(problem(start, end, msg.wgslModuleScope(lexeme)));
    } else if (type === 'var' && tokens[i + 1]?.lexeme === '<') {
      const space = tokens[i + 2];
      if (space && space.lexeme !== 'function') {
        problems.push(problem(start, (tokens[i + 3] ?? space).end, msg.wgslVarSpace(space.lexeme)));
      }
    } else if (type === 'ident') {
      const declaring =
        previous &&
        (previous.type.name === 'let' ||
          previous.type.name === 'var' ||
          previous.type.name === 'const' ||
          previous.lexeme === '>');
      if (declaring && (previous.lexeme !== '>' || isVarTemplate(tokens, i))) {
        declared.add(lexeme);
      } else if (
        previous?.lexeme !== '.' &&
        !declared.has(lexeme) &&
        !lexeme.startsWith('__syclts_ref_') &&
        !BUILTIN_FUNCTIONS.has(lexeme) &&
        !TYPE_ALIAS.test(lexeme)
      ) {
        problems.push(problem(start, end, msg.wgslUndeclared(lexeme)));
      }
    }
  }
  const unclosed = open.at(-1);
  if (unclosed && problems.length === 0) {
    problems.push(problem(unclosed.start, unclosed.end, msg.wgslUnclosed(unclosed.lexeme)));
  }
  return problems;
}

/** Whether the `>` before token `i` ends a `var<...>` template (so token `i` is declared). */
function isVarTemplate(tokens: ReturnType<WgslScanner['scanTokens']>, i: number): boolean {
  for (let j = i - 2; j >= 0 && j >= i - 4; j--) {
    if (tokens[j]!.lexeme === '<') return tokens[j - 1]?.type.name === 'var';
  }
  return false;
}
