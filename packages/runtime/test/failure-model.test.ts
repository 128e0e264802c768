/**
 * Property: random short sequences of launches, buffer writes and reads, and device-global
 * copies, with failures injected (a kernel whose pipeline fails, a launch binding a buffer
 * destroyed behind the runtime's back, calls the runtime refuses at once), agree with a model of
 * docs/runtime.md's failure model.
 * Every read returns the model's contents exactly or throws the error of the command the model
 * says wrote last and failed, naming it; every command's own `wait()` throws iff the model says
 * it failed; nothing independent fails; an error no one observed is raised once, by a later
 * submit or write, while it is known (at once for a refused batch, after a tick for a failed
 * pipeline); and `queue.wait()` raises nothing once all was observed.
 *
 * One queue for the file (pipelines are created once, but the failing one, which the runtime
 * creates anew for each launch); the state carries over between
 * sequences. SYCLTS_PROPERTY_SEED replays a run, SYCLTS_FAILURE_SEQUENCES sets how many
 * sequences it runs (2,000 by default; the longer run in docs/runtime.md is 100,000).
 */
import { accessor, array, deviceGlobal, kernel, specializationId, u32 } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { errc, ndRange, type Queue, type SyclError, type SyclEvent } from '../src/index.js';
import { compileSources } from './support/compile.js';
import { freshQueue, POISON } from './support/gpu.js';

const N = 8;
const SEQUENCES = Number(process.env.SYCLTS_FAILURE_SEQUENCES ?? 2000);
// Fresh sequences every run; a failure names the seed, and SYCLTS_PROPERTY_SEED replays it.
const SEED = Number(process.env.SYCLTS_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`[syclts] failure model: SYCLTS_PROPERTY_SEED=${SEED}`);

const item = 'const i = item.getId(0);';
const source = [
  "import { accessor, array, deviceGlobal, kernel, specializationId, u32 } from '@syclts/dsl';",
  'export const tile = specializationId(u32, 8);',
  `export const g0 = deviceGlobal(array(u32, ${N}));`,
  `export const fill = kernel({ range: 1, args: { dst: accessor(u32, 'write'), k: u32, c: u32 } }, (item, _kh, { dst, k, c }) => { ${item} dst[i] = i * k + c; });`,
  `export const affine = kernel({ range: 1, args: { src: accessor(u32, 'read'), dst: accessor(u32, 'write'), k: u32, c: u32 } }, (item, _kh, { src, dst, k, c }) => { ${item} dst[i] = src[i]! * k + c; });`,
  `export const bump = kernel({ range: 1, args: { buf: accessor(u32, 'read_write'), k: u32, c: u32 } }, (item, _kh, { buf, k, c }) => { ${item} buf[i] = buf[i]! * k + c; });`,
  `export const stash = kernel({ range: 1, args: { src: accessor(u32, 'read'), k: u32 } }, (item, _kh, { src, k }) => { ${item} g0.value[i] = g0.value[i]! * k + src[i]!; });`,
  `export const unstash = kernel({ range: 1, args: { dst: accessor(u32, 'write'), c: u32 } }, (item, _kh, { dst, c }) => { ${item} dst[i] = g0.value[i]! ^ c; });`,
  "export const sized = kernel({ ndRange: 1, workgroupSize: [tile], args: { dst: accessor(u32, 'write') } }, (item, _kh, { dst }) => { dst[item.getGlobalId(0)] = item.getLocalId(0); });",
].join('\n');
/** The failing kernel in a module of its own: a WGSL error fails its module's every pipeline. */
const brokenSource = [
  "import { accessor, array, deviceFunction, deviceGlobal, kernel, u32, wgsl } from '@syclts/dsl';",
  `export const g1 = deviceGlobal(array(u32, ${N}));`,
  // Returns a vector where it promised a u32: only the GPU compiler sees it.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: device source text
  'const widen = deviceFunction({ args: [u32], returns: u32 }, (x) => wgsl`return vec3u(${x});`);',
  `export const bad = kernel({ range: 1, args: { dst: accessor(u32, 'write') } }, (item, _kh, { dst }) => { ${item} dst[i] = widen(i); g1.value[i] = i; });`,
].join('\n');

const g0 = deviceGlobal(array(u32, N));
const g1 = deviceGlobal(array(u32, N));
const fill = kernel({ range: 1, args: { dst: accessor(u32, 'write'), k: u32, c: u32 } }, () => {});
const affine = kernel(
  { range: 1, args: { src: accessor(u32, 'read'), dst: accessor(u32, 'write'), k: u32, c: u32 } },
  () => {},
);
const bump = kernel(
  { range: 1, args: { buf: accessor(u32, 'read_write'), k: u32, c: u32 } },
  () => {},
);
const stash = kernel({ range: 1, args: { src: accessor(u32, 'read'), k: u32 } }, () => {});
const unstash = kernel({ range: 1, args: { dst: accessor(u32, 'write'), c: u32 } }, () => {});
const bad = kernel({ range: 1, args: { dst: accessor(u32, 'write') } }, () => {});
const tile = specializationId(u32, 8);
const sized = kernel(
  { ndRange: 1, workgroupSize: [tile], args: { dst: accessor(u32, 'write') } },
  () => {},
);
compileSources([
  {
    module: 'src/prop.sycl.ts',
    source,
    exports: { tile, g0, fill, affine, bump, stash, unstash, sized },
  },
  { module: 'src/broken.sycl.ts', source: brokenSource, exports: { g1, bad } },
]);

const BUFFERS = ['a', 'b', 'c'] as const;
const GLOBALS = ['g0', 'g1'] as const;
type BufferName = (typeof BUFFERS)[number];
type GlobalName = (typeof GLOBALS)[number];
type Resource = BufferName | GlobalName;

type Command =
  | { op: 'write'; buf: BufferName; start: number; data: number[] }
  | { op: 'read'; buf: BufferName }
  | { op: 'copyIn'; global: GlobalName; data: number[] }
  | { op: 'copyOut'; global: GlobalName }
  | { op: 'fill'; dst: BufferName; k: number; c: number }
  | { op: 'affine'; src: BufferName; dst: BufferName; k: number; c: number }
  | { op: 'bump'; buf: BufferName; k: number; c: number }
  | { op: 'stash'; src: BufferName; k: number }
  | { op: 'unstash'; dst: BufferName; c: number }
  // Pipeline creation fails; it writes `dst` and g1.
  | { op: 'bad'; dst: BufferName }
  // `fill` into the destroyed buffer: WebGPU refuses the batch it is submitted in.
  | { op: 'gone'; k: number; c: number }
  // Refused by the call itself: a buffer destroyed through the runtime, a workgroup size over
  // the device's limit. Nothing is issued.
  | { op: 'dead'; k: number; c: number }
  | { op: 'wide'; dst: BufferName }
  // The host lets the runtime run until every command so far has its outcome, observing
  // nothing: what failed is known, and raised by the next submit or write.
  | { op: 'tick' };

/** Small deterministic generator (xorshift32) seeded per sequence. */
class Rand {
  #x: number;
  constructor(seed: number) {
    this.#x = seed >>> 0 || 1;
  }
  u32(): number {
    this.#x ^= this.#x << 13;
    this.#x >>>= 0;
    this.#x ^= this.#x >>> 17;
    this.#x ^= this.#x << 5;
    this.#x >>>= 0;
    return this.#x;
  }
  below(n: number): number {
    return this.u32() % n;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }
  words(n: number): number[] {
    return Array.from({ length: n }, () => this.u32());
  }
}

function generate(rand: Rand): Command[] {
  const length = 3 + rand.below(6);
  return Array.from({ length }, (): Command => {
    const buf = rand.pick(BUFFERS);
    const other = rand.pick(BUFFERS.filter((b) => b !== buf));
    const k = rand.u32();
    const c = rand.u32();
    const start = rand.below(N);
    // Failures about one command in six: rare enough that most reads see data.
    switch (rand.below(18)) {
      case 0:
        return { op: 'bad', dst: buf };
      case 1:
        return { op: 'gone', k, c };
      case 16:
        return rand.below(2) ? { op: 'dead', k, c } : { op: 'wide', dst: buf };
      case 17:
        return { op: 'tick' };
      case 2:
      case 3:
        return { op: 'write', buf, start, data: rand.words(N - start) };
      case 4:
      case 5:
      case 6:
        return { op: 'read', buf };
      case 7:
        return { op: 'copyIn', global: rand.pick(GLOBALS), data: rand.words(N) };
      case 8:
      case 9:
        return { op: 'copyOut', global: rand.pick(GLOBALS) };
      case 10:
        return { op: 'fill', dst: buf, k, c };
      case 11:
      case 12:
        return { op: 'affine', src: other, dst: buf, k, c };
      case 13:
        return { op: 'bump', buf, k, c };
      case 14:
        return { op: 'stash', src: buf, k };
      default:
        return { op: 'unstash', dst: buf, c };
    }
  });
}

/** What a command is expected to do: succeed, or fail in one of the model's ways. */
type Expected =
  // A read's `value`: the contents it returns.
  | { kind: 'ok'; value?: number[] }
  | { kind: 'pipeline' }
  | { kind: 'refused' }
  | { kind: 'notRun' }
  // Thrown at once by its API: an unobserved error, raised once (whose: see Observation).
  | { kind: 'raised' }
  // Refused by the call itself (errc.kernelArgument or kernelNotSupported), before anything.
  | { kind: 'rejected' }
  // It reads what command `writer` wrote, and that failed (its index in the sequence; negative:
  // a command of an earlier sequence, its error kept in `earlier`).
  | { kind: 'dependent'; writer: number };

interface Slot {
  contents: number[];
  /** The failed command that wrote it last (its index in the sequence), or null. */
  failedBy: number | null;
  /** Before this sequence: its error, to compare a dependent's message exactly. */
  earlier: SyclError | null;
}
type Model = Record<Resource, Slot>;

const isLaunch = (c: Command) => !['write', 'read', 'copyIn', 'copyOut'].includes(c.op);
/** A launch's reads and writes: buffers by accessor, and every device global it uses. */
function access(c: Command): { reads: Resource[]; writes: Resource[] } {
  switch (c.op) {
    case 'fill':
    case 'gone':
      return { reads: [], writes: c.op === 'fill' ? [c.dst] : [] };
    case 'affine':
      return { reads: [c.src], writes: [c.dst] };
    case 'bump':
      return { reads: [c.buf], writes: [c.buf] };
    case 'stash':
      return { reads: [c.src, 'g0'], writes: ['g0'] };
    case 'unstash':
      return { reads: ['g0'], writes: [c.dst, 'g0'] };
    case 'bad':
      return { reads: ['g1'], writes: [c.dst, 'g1'] };
    default:
      return { reads: [], writes: [] };
  }
}

const mad = (x: number, k: number, c: number) => (Math.imul(x, k) + c) >>> 0;

/** Applies a launch that ran to the contents. */
function run(model: Model, c: Command): void {
  const at = (r: Resource) => model[r].contents;
  switch (c.op) {
    case 'fill':
      model[c.dst].contents = at(c.dst).map((_, i) => mad(i, c.k, c.c));
      return;
    case 'affine':
      model[c.dst].contents = at(c.src).map((x) => mad(x, c.k, c.c));
      return;
    case 'bump':
      model[c.buf].contents = at(c.buf).map((x) => mad(x, c.k, c.c));
      return;
    case 'stash': {
      const src = at(c.src);
      model.g0.contents = at('g0').map((x, i) => mad(x, c.k, src[i]!));
      return;
    }
    case 'unstash':
      model[c.dst].contents = at('g0').map((x) => (x ^ c.c) >>> 0);
      return;
    default:
  }
}

/**
 * The model of one sequence, stepped as the commands are issued: for each command, what it is
 * expected to do, and for each read what it returns.
 * Launches share a batch until a command of another kind, or the first launch whose pipeline is
 * not ready (`bad`), which waits and issues those behind it in a new batch. A batch holding a `gone`
 * launch is refused whole: the launches recorded in it fail, and none of them ran.
 */
function sequenceModel(model: Model) {
  const expected: Expected[] = [];
  const log: Observation[] = [];
  const failure = (reads: Resource[]) => reads.find((r) => model[r].failedBy !== null);
  let batch: { index: number; command: Command }[] = [];
  let before: Record<Resource, number[]> | null = null;
  // Failed commands the runtime learns of at the next tick (a pipeline's outcome, a batch
  // submitted at the end of the task).
  let hidden: number[] = [];
  // Behind a launch waiting for its pipeline, commands are issued later, not while issuing.
  let waiting = false;
  // The command that wrote each resource last in this sequence (its index).
  const writer: Partial<Record<Resource, number>> = {};
  const close = (now: boolean) => {
    if (batch.some(({ command }) => command.op === 'gone')) {
      for (const r of [...BUFFERS, ...GLOBALS]) model[r].contents = before![r];
      for (const { index, command } of batch) {
        const refused = command.op === 'gone';
        expected[index] = { kind: refused ? 'refused' : 'notRun' };
        for (const w of access(command).writes) {
          if (writer[w] === index) model[w].failedBy = index;
        }
        // Dawn reports a refused submit within the submit call: the next call sees its error.
        if (refused && now) log.push({ at: 'failed', index });
        else if (refused) hidden.push(index);
      }
    }
    batch = [];
    before = null;
  };
  /** The step for command `index`; `raised`: its call raised an error no one had observed. */
  const step = (command: Command, index: number, raised: boolean) => {
    // `queue.submit` runs the command group first: its own error is raised, the unobserved one
    // waits for the next call. The shortcuts raise the unobserved error first.
    if (command.op === 'wide') {
      expected[index] = { kind: 'rejected' };
      return;
    }
    if (command.op !== 'read' && command.op !== 'copyOut') {
      log.push({ at: 'submit', index });
    }
    if (raised) {
      expected[index] = { kind: 'raised' };
      return;
    }
    if (command.op === 'dead') {
      expected[index] = { kind: 'rejected' };
      return;
    }
    // The first launch waiting for its pipeline ends the batch; those behind it are issued in
    // one go once the pipelines' outcomes are in, so a later one ends none.
    if (!isLaunch(command) || (command.op === 'bad' && !waiting)) {
      close(!isLaunch(command) && !waiting);
    }
    const { reads, writes } = access(command);
    for (const w of writes) writer[w] = index;
    if (command.op === 'write' || command.op === 'copyIn') {
      writer[command.op === 'write' ? command.buf : command.global] = index;
    }
    if (command.op === 'bad') {
      waiting = true;
      hidden.push(index);
      expected[index] = { kind: 'pipeline' };
      for (const w of writes) model[w].failedBy = index;
      return;
    }
    if (command.op === 'write' || command.op === 'copyIn') {
      const slot = model[command.op === 'write' ? command.buf : command.global];
      const start = command.op === 'write' ? command.start : 0;
      slot.contents = slot.contents.map((x, i) => (i < start ? x : command.data[i - start]!));
      slot.failedBy = null;
      expected[index] = { kind: 'ok' };
      return;
    }
    if (command.op === 'read' || command.op === 'copyOut') {
      const slot = model[command.op === 'read' ? command.buf : command.global];
      expected[index] =
        slot.failedBy === null
          ? { kind: 'ok', value: slot.contents }
          : { kind: 'dependent', writer: slot.failedBy };
      if (slot.failedBy !== null && slot.failedBy >= 0) {
        log.push({ at: 'read', index: slot.failedBy });
      }
      return;
    }
    const input = failure(reads);
    if (input !== undefined) {
      expected[index] = { kind: 'dependent', writer: model[input].failedBy! };
      for (const w of writes) model[w].failedBy = index;
      return;
    }
    before ??= Object.fromEntries(
      [...BUFFERS, ...GLOBALS].map((r) => [r, model[r].contents]),
    ) as Record<Resource, number[]>;
    run(model, command);
    for (const w of writes) model[w].failedBy = null;
    expected[index] = { kind: 'ok' };
    batch.push({ index, command });
  };
  /** The runtime ran: pending commands are issued, the open batch submitted, failures known. */
  const tick = () => {
    close(true);
    for (const index of hidden) log.push({ at: 'failed', index });
    hidden = [];
    waiting = false;
    log.push({ at: 'tick' });
  };
  return { expected, log, step, tick, end: () => close(false) };
}

/**
 * What the runtime learns and observes, in order, to check which unobserved error each call
 * raised (`index`: a command of the sequence). `failed`: it knows command `index` failed, and no
 * one observed it. `read`: a read of what `index` wrote was issued: from the next tick on it
 * may have observed it. `submit`: a call that raises an unobserved error, if any.
 */
type Observation =
  | { at: 'failed'; index: number }
  | { at: 'read'; index: number }
  | { at: 'tick' }
  | { at: 'submit'; index: number };

/** What a command's issue gave: its event, or the promise of a read's contents. */
type Outcome =
  | { ok: true; value: number[] | null }
  // `thrown`: by the call itself, not by its wait or read.
  | { ok: false; error: SyclError; thrown?: boolean };

const settle = (p: Promise<unknown>, host?: Uint32Array): Promise<Outcome> =>
  p.then(
    (value) => ({
      ok: true,
      value: host ? Array.from(host) : value ? Array.from(value as Uint32Array) : null,
    }),
    (error: SyclError) => ({ ok: false, error }),
  );

/** A u32 buffer of N elements, labelled as the errors name it. */
const u32Buffer = (q: Queue, label: string) => q.buffer(new Uint32Array(N).fill(POISON), { label });
type U32Buffer = ReturnType<typeof u32Buffer>;

interface World {
  q: Queue;
  buffers: Record<BufferName, U32Buffer>;
  gone: U32Buffer;
  dead: U32Buffer;
  /** A workgroup size over the device's limit. */
  wide: number;
}

/** Issues one command (not a tick): its event, or the promise of a read's outcome. */
function call({ q, buffers, gone, dead, wide }: World, c: Exclude<Command, { op: 'tick' }>) {
  const globals = { g0, g1 };
  switch (c.op) {
    case 'write':
      return buffers[c.buf].write(c.data, c.start);
    case 'read':
      return settle(buffers[c.buf].read());
    case 'copyIn':
      return q.copy(c.data, globals[c.global]);
    case 'copyOut': {
      const host = new Uint32Array(N).fill(POISON);
      return settle(q.copy(globals[c.global], host).wait(), host);
    }
    case 'fill':
      return q.parallelFor(N, fill, { dst: buffers[c.dst], k: c.k, c: c.c });
    case 'affine':
      return q.parallelFor(N, affine, {
        src: buffers[c.src],
        dst: buffers[c.dst],
        k: c.k,
        c: c.c,
      });
    case 'bump':
      return q.parallelFor(N, bump, { buf: buffers[c.buf], k: c.k, c: c.c });
    case 'stash':
      return q.parallelFor(N, stash, { src: buffers[c.src], k: c.k });
    case 'unstash':
      return q.parallelFor(N, unstash, { dst: buffers[c.dst], c: c.c });
    case 'bad':
      return q.parallelFor(N, bad, { dst: buffers[c.dst] });
    case 'gone':
      return q.parallelFor(N, fill, { dst: gone, k: c.k, c: c.c });
    case 'dead':
      return q.parallelFor(N, fill, { dst: dead, k: c.k, c: c.c });
    case 'wide':
      return q.submit((cgh) => {
        cgh.setSpecializationConstant(tile, wide);
        cgh.parallelFor(ndRange([wide], [wide]), sized, { dst: buffers[c.dst] });
      });
  }
}

const API = { write: 'buffer.write', copyIn: 'queue.copy' } as const;
const apiOf = (c: Command) =>
  c.op === 'write' || c.op === 'copyIn' ? API[c.op] : 'queue.parallelFor';
const RAISED = ': an earlier command failed: ';

/**
 * Issues the commands in order, the model stepping along (batches form as it says: nothing is
 * awaited but at a tick); their outcomes, and the model's expectations.
 */
async function issue(world: World, model: Model, commands: readonly Command[]) {
  const sequence = sequenceModel(model);
  const issued: (SyclEvent | Promise<Outcome>)[] = [];
  for (const [index, c] of commands.entries()) {
    if (c.op === 'tick') {
      // Until every command so far has its outcome (a failed pipeline is created anew on each
      // launch, and the commands behind it wait): their statuses tell, without observing.
      while (issued.some((e) => !(e instanceof Promise) && e.status === 'submitted')) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      sequence.tick();
      sequence.expected[index] = { kind: 'ok' };
      issued.push(Promise.resolve({ ok: true, value: null }));
      continue;
    }
    let result: SyclEvent | Promise<Outcome>;
    let raised = false;
    try {
      result = call(world, c);
    } catch (error) {
      const thrown = error as SyclError;
      raised = thrown.message.startsWith(`${apiOf(c)}${RAISED}`);
      result = Promise.resolve({ ok: false, error: thrown, thrown: true });
    }
    sequence.step(c, index, raised);
    issued.push(result);
  }
  sequence.end();
  // Waited for only once all is issued: a wait flushes the open batch and observes its error.
  const outcomes = await Promise.all(
    issued.map((e) => (e instanceof Promise ? e : settle(e.wait()))),
  );
  return { outcomes, expected: sequence.expected, log: sequence.log };
}

/**
 * Which command's error each raising call raised, checked against what the runtime knew: one it
 * knew failed and no one observed (a read may have observed it since a tick), each once; a call
 * that raised nothing while one surely unobserved was known disagrees.
 */
function raisedBy(log: readonly Observation[], outcomes: readonly Outcome[]): Map<number, number> {
  const unobserved = new Set<number>();
  const maybe = new Set<number>();
  const reads = new Set<number>();
  const raised = new Map<number, number>();
  for (const entry of log) {
    if (entry.at === 'failed') unobserved.add(entry.index);
    else if (entry.at === 'read') reads.add(entry.index);
    else if (entry.at === 'tick') {
      for (const index of reads) {
        if (unobserved.delete(index)) maybe.add(index);
      }
    } else {
      const got = outcomes[entry.index]!;
      const cause =
        !got.ok && got.thrown && got.error.message.includes(RAISED) ? got.error.cause : undefined;
      if (cause === undefined) {
        if (unobserved.size > 0) {
          throw new Error(
            `command ${entry.index} raised nothing, though command ${[...unobserved][0]} failed unobserved`,
          );
        }
        maybe.clear();
        continue;
      }
      // Launches of one failing pipeline, created once for them, share its error.
      const owners = outcomes.flatMap((o, i) =>
        !o.ok && !o.thrown && o.error === cause ? [i] : [],
      );
      const of = owners.find((i) => unobserved.has(i)) ?? owners.find((i) => maybe.has(i));
      if (of === undefined) {
        throw new Error(
          `command ${entry.index} raised the error of command ${owners[0]}, not one unobserved`,
        );
      }
      unobserved.delete(of);
      maybe.delete(of);
      raised.set(entry.index, of);
    }
  }
  return raised;
}

const FILL = /^src\/prop\.sycl\.ts:\d+:\d+: src\/prop\.sycl\.ts#fill: /;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const kernelName = (c: Command) =>
  `src/${c.op === 'bad' ? 'broken' : 'prop'}.sycl.ts#${c.op === 'gone' ? 'fill' : c.op}`;
const readName = (c: Command) =>
  c.op === 'read'
    ? `${c.buf}.read()`
    : c.op === 'copyOut'
      ? `queue.copy(src/${c.global === 'g0' ? 'prop' : 'broken'}.sycl.ts#${c.global})`
      : kernelName(c);

/**
 * Checks each outcome against the model; throws naming the first disagreement. Returns which
 * command's error each raising call raised.
 */
function check(
  commands: readonly Command[],
  expected: readonly Expected[],
  outcomes: readonly Outcome[],
  earlier: Record<number, SyclError>,
  log: readonly Observation[],
): Map<number, number> {
  const raised = raisedBy(log, outcomes);
  const errorOf = (i: number): SyclError => {
    const outcome = i < 0 ? null : outcomes[i];
    if (outcome && !outcome.ok) return outcome.error;
    if (i < 0 && earlier[i]) return earlier[i]!;
    throw new Error(`command ${i} should have failed`);
  };
  commands.forEach((command, i) => {
    const want = expected[i]!;
    const got = outcomes[i]!;
    const where = `command ${i} (${JSON.stringify(command)})`;
    if (want.kind === 'ok') {
      if (!got.ok) throw new Error(`${where} failed: ${got.error.message}`);
      const values = want.value;
      if (values && JSON.stringify(got.value) !== JSON.stringify(values)) {
        throw new Error(`${where} read ${got.value} instead of ${values}`);
      }
      return;
    }
    if (got.ok) throw new Error(`${where} should have failed (${want.kind}), it gave ${got.value}`);
    const { message } = got.error;
    if ((want.kind === 'raised' || want.kind === 'rejected') !== (got.thrown === true)) {
      throw new Error(
        `${where} should fail as ${JSON.stringify(want)}, it failed with: ${message}`,
      );
    }
    const ok = (() => {
      switch (want.kind) {
        case 'pipeline':
          return (
            got.error.errc === errc.build &&
            /^src\/broken\.sycl\.ts:\d+:\d+: error: [\s\S]*\nkernel src\/broken\.sycl\.ts#bad: creating its (native|emulated) pipeline failed$/.test(
              message,
            )
          );
        case 'refused':
          return (
            got.error.errc === errc.runtime &&
            new RegExp(
              `${FILL.source}WebGPU validation error: [\\s\\S]*"gone"[\\s\\S]*destroyed`,
            ).test(message)
          );
        case 'notRun':
          return (
            got.error.errc === errc.runtime &&
            new RegExp(
              `^src/prop\\.sycl\\.ts:\\d+:\\d+: ${escapeRegExp(kernelName(command))}: not run: WebGPU refused the submission it shared with src/prop\\.sycl\\.ts#fill: `,
            ).test(message)
          );
        case 'rejected':
          return command.op === 'dead'
            ? got.error.errc === errc.kernelArgument &&
                message ===
                  "queue.parallelFor: kernel src/prop.sycl.ts#fill, argument 'dst': the buffer was destroyed"
            : got.error.errc === errc.kernelNotSupported &&
                message.includes('kernel src/prop.sycl.ts#sized needs maxComputeWorkgroupSizeX');
        case 'raised': {
          const cause = errorOf(raised.get(i)!);
          return (
            got.error.errc === cause.errc &&
            message === `${apiOf(command)}${RAISED}${cause.message}`
          );
        }
        case 'dependent': {
          const cause = errorOf(want.writer);
          return (
            got.error.errc === cause.errc &&
            message ===
              `${readName(command)}: it reads what a failed command wrote: ${cause.message}`
          );
        }
      }
    })();
    if (!ok)
      throw new Error(
        `${where} should fail as ${JSON.stringify(want)}, it failed with: ${message}`,
      );
  });
  return raised;
}

test(`${SEQUENCES} random sequences of commands with failures agree with the failure model (seed ${SEED})`, async () => {
  const q = await freshQueue();
  const init = new Rand(SEED ^ 0x5eed);
  const buffers = {
    a: u32Buffer(q, 'a'),
    b: u32Buffer(q, 'b'),
    c: u32Buffer(q, 'c'),
  };
  const gone = u32Buffer(q, 'gone');
  gone.gpuBuffer.destroy();
  const dead = u32Buffer(q, 'dead');
  dead.destroy();
  const { maxComputeWorkgroupSizeX, maxComputeInvocationsPerWorkgroup } = q.device.limits;
  const wide = 2 * Math.max(maxComputeWorkgroupSizeX, maxComputeInvocationsPerWorkgroup);
  const start = { g0: init.words(N), g1: init.words(N) };
  q.copy(start.g0, g0);
  q.copy(start.g1, g1);
  // Every pipeline created (or failed) before the sequences: a launch waiting for its pipeline
  // issues those behind it in a batch of their own, which the model does not follow.
  const warm = buffers.a;
  await q.parallelFor(N, fill, { dst: warm, k: 1, c: 0 }).wait();
  await q.parallelFor(N, affine, { src: warm, dst: buffers.b, k: 1, c: 0 }).wait();
  await q.parallelFor(N, bump, { buf: warm, k: 1, c: 0 }).wait();
  await q.parallelFor(N, stash, { src: warm, k: 1 }).wait();
  await q.parallelFor(N, unstash, { dst: warm, c: 0 }).wait();
  await expect(q.parallelFor(N, bad, { dst: warm }).wait()).rejects.toThrow(/creating its/);
  // Back to the start: the warm-up launches ran from POISON and the initial g0 / g1 values.
  warm.write(new Uint32Array(N).fill(POISON));
  buffers.b.write(new Uint32Array(N).fill(POISON));
  q.copy(start.g0, g0);
  q.copy(start.g1, g1);
  await q.wait();
  const model: Model = {
    a: { contents: new Array<number>(N).fill(POISON), failedBy: null, earlier: null },
    b: { contents: new Array<number>(N).fill(POISON), failedBy: null, earlier: null },
    c: { contents: new Array<number>(N).fill(POISON), failedBy: null, earlier: null },
    g0: { contents: start.g0, failedBy: null, earlier: null },
    g1: { contents: start.g1, failedBy: null, earlier: null },
  };
  const world: World = { q, buffers, gone, dead, wide };
  // How often each outcome was checked: a run that checks no failure would prove nothing.
  const tally: Record<string, number> = {};
  for (let s = 0; s < SEQUENCES; s++) {
    const commands = generate(new Rand(SEED + s * 0x9e3779b9));
    // Failures of earlier sequences are known by their error: index -1 - resource's position.
    const earlier: Record<number, SyclError> = {};
    [...BUFFERS, ...GLOBALS].forEach((r, i) => {
      const slot = model[r];
      if (slot.failedBy === null) return;
      earlier[-1 - i] = slot.earlier!;
      slot.failedBy = -1 - i;
    });
    const { outcomes, expected, log } = await issue(world, model, commands);
    for (const { kind } of expected) tally[kind] = (tally[kind] ?? 0) + 1;
    try {
      // A raised error counts again by whose it was: a failed pipeline's is known only later.
      for (const of of check(commands, expected, outcomes, earlier, log).values()) {
        const key = `raised ${expected[of]!.kind}`;
        tally[key] = (tally[key] ?? 0) + 1;
      }
    } catch (error) {
      throw new Error(
        `sequence ${s} (SYCLTS_PROPERTY_SEED=${SEED}): ${(error as Error).message}\n${commands.map((c, i) => `${i}: ${JSON.stringify(c)} expected ${JSON.stringify(expected[i])}`).join('\n')}`,
      );
    }
    for (const r of [...BUFFERS, ...GLOBALS]) {
      const slot = model[r];
      if (slot.failedBy === null) continue;
      const outcome = slot.failedBy < 0 ? null : outcomes[slot.failedBy]!;
      slot.earlier = outcome && !outcome.ok ? outcome.error : earlier[slot.failedBy]!;
    }
    // Every error was observed by a wait or a read: nothing is raised again.
    await q.wait();
  }
  console.log(`[syclts] failure model: outcomes checked ${JSON.stringify(tally)}`);
  const kinds = ['ok', 'pipeline', 'refused', 'notRun', 'rejected', 'dependent'];
  for (const kind of [...kinds, 'raised pipeline', 'raised refused']) {
    expect(tally[kind] ?? 0, kind).toBeGreaterThan(SEQUENCES / 400);
  }
}, 3_600_000);
