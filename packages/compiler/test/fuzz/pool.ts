/**
 * Runs fuzz inputs in worker processes, each step under a time limit. A lane holds a compile
 * worker (worker.ts) and a Dawn worker (dawn-worker.ts); one that dies (a signal, an exit) or
 * does not answer in time is recorded as a crash of the input it held and replaced, so a run
 * survives every input.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type DawnVerdict, judge, type Outcome } from './check.js';
import type { Size } from './input.js';
import { inputAt } from './inputs.js';
import type { CompileReply, Reply, Request } from './worker.js';

export interface PoolOptions {
  readonly seed: number;
  readonly size: Size;
  /** Inputs [first, first + count). */
  readonly first: number;
  readonly count: number;
  readonly jobs: number;
  /** Per step: a worker that takes longer is killed and the input recorded as a hang. */
  readonly timeoutMs: number;
  /** Called for every input with its outcome and the time it took (milliseconds). */
  readonly onReply: (reply: Reply, ms: number) => void;
  /** Asked before each input: true ends the run early (the inputs begun are finished). */
  readonly stop?: () => boolean;
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
// Run from source through the TypeScript loader, or bundled (main.mjs, worker.mjs and
// dawn-worker.mjs side by side) on a machine that has Node and Dawn but not the repository.
const bundled = !import.meta.url.endsWith('.ts');
const ext = bundled ? '.mjs' : '.ts';
const execArgv = bundled ? [] : ['--import', here('./ts-loader.mjs')];
const compileWorker = { path: here(`./worker${ext}`), execArgv };
const dawnWorker = { path: here(`./dawn-worker${ext}`), execArgv };

/** Forks a worker and waits until it is ready for its first request. */
function spawn(kind: { path: string; execArgv: string[] }): Promise<ChildProcess> {
  const child = fork(kind.path, [], {
    execArgv: kind.execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  // A worker's stderr is drained so it never blocks; what went wrong is in the outcome.
  child.stderr?.resume();
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code, signal) =>
      reject(new Error(`${kind.path} exited before it started (${signal ?? code})`)),
    );
  });
}

export async function runPool(options: PoolOptions): Promise<void> {
  let next = options.first;
  const end = options.first + options.count;
  const lane = async (): Promise<void> => {
    let compiler = await spawn(compileWorker);
    let dawn = await spawn(dawnWorker);
    while (next < end && !options.stop?.()) {
      const index = next++;
      const started = performance.now();
      const report = (reply: Reply) => options.onReply(reply, performance.now() - started);
      const request: Request = { seed: options.seed, index, size: options.size };
      const compiled = await ask<CompileReply>(compiler, request, options.timeoutMs);
      if (compiled.kind !== 'answer') {
        compiler.kill('SIGKILL');
        report(died(request, 'compiler', compiled));
        compiler = await spawn(compileWorker);
        continue;
      }
      const { family, outcome, job } = compiled.value;
      if (!job) {
        report({ index, family, outcome });
        continue;
      }
      const verdict = await ask<DawnVerdict>(dawn, job, options.timeoutMs);
      if (verdict.kind !== 'answer') {
        dawn.kill('SIGKILL');
        report(died(request, 'Dawn', verdict));
        dawn = await spawn(dawnWorker);
        continue;
      }
      report({ index, family, outcome: judge(job, verdict.value) });
    }
    compiler.disconnect();
    dawn.disconnect();
  };
  await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, lane));
}

type Answer<T> =
  | { readonly kind: 'answer'; readonly value: T }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'died'; readonly how: string };

/** The worker's answer to one message, or how it failed to give one. */
function ask<T>(child: ChildProcess, message: unknown, timeoutMs: number): Promise<Answer<T>> {
  return new Promise((resolve) => {
    const done = (answer: Answer<T>) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(answer);
    };
    const onMessage = (value: T) => done({ kind: 'answer', value });
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      done({ kind: 'died', how: signal ?? `exit code ${code}` });
    const timer = setTimeout(() => done({ kind: 'timeout' }), timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(message as object);
  });
}

function died(
  { seed, index, size }: Request,
  worker: string,
  answer: { kind: 'timeout' } | { kind: 'died'; how: string },
): Reply {
  const outcome: Outcome =
    answer.kind === 'timeout'
      ? { kind: 'crash', signature: `${worker} hangs: no answer within the time limit`, detail: '' }
      : { kind: 'crash', signature: `${worker} process died: ${answer.how}`, detail: '' };
  return { index, family: inputAt(seed, index, size).family, outcome };
}
