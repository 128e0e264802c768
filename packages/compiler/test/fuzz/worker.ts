/**
 * A fuzz worker process: asked for input `index` of seed `seed`, it makes the input, builds it
 * and answers with the outcome and, for a program, the Dawn job that checks it. It runs in its
 * own process so that a parser that dies on an input (a stack overflow in native code) or
 * hangs takes only the worker with it; the pool records that input and starts another worker.
 */
import { compile, type DawnJob, type Outcome } from './check.js';
import type { Size } from './input.js';
import { inputAt } from './inputs.js';

export interface Request {
  readonly seed: number;
  readonly index: number;
  readonly size: Size;
}

export interface Reply {
  readonly index: number;
  readonly family: string;
  readonly outcome: Outcome;
}

export interface CompileReply extends Reply {
  readonly job: DawnJob | null;
}

/**
 * Outcomes by input text: many hostile inputs repeat (a template with few variants), and a
 * build is deterministic. Bounded, so a long run's memory stays flat.
 */
const seen = new Map<string, ReturnType<typeof compile>>();

process.on('message', ({ seed, index, size }: Request) => {
  const input = inputAt(seed, index, size);
  const key = JSON.stringify([input.specConstants, input.sources]);
  let result = seen.get(key);
  if (!result) {
    result = compile(input);
    if (seen.size >= 2000) seen.clear();
    if (key.length < 100_000) seen.set(key, result);
  }
  const reply: CompileReply = { index, family: input.family, ...result };
  process.send!(reply);
});
// Ctrl-C in a terminal reaches the whole process group: the pool decides when workers end.
process.on('SIGINT', () => {});
process.on('disconnect', () => process.exit(0));
process.send!('ready');
