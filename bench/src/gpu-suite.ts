/**
 * The GPU suite: copy bandwidth, kernel speed (matrix multiply, 3x3 convolution; native,
 * emulated, uniform arguments, literal WGSL), value-change cost and host overhead per launch.
 * Writes a Markdown section (adapter, date, command) to --out, and prints it.
 *
 *   node gpu-suite.mjs [--small] [--out FILE]
 *
 * --small runs tiny sizes (for a software adapter; same code path, same checks).
 * BENCH_SECTIONS=kernels,costs,collectives (default all) selects the sections after the copy
 * ceiling, which is always measured: kernel speed (matmul, conv), value-change and launch costs,
 * hand-written collectives (rows and sizes: BENCH_COLLECTIVES, BENCH_COLLECTIVES_LOG2, see
 * gpu/collective-rows.ts).
 */
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Queue } from '@syclts/runtime';
import { copyBandwidth } from './gpu/bandwidth.js';
import { type CollectiveRow, collectiveOptions, collectiveRows } from './gpu/collective-rows.js';
import { benchDevice } from './gpu/device.js';
import { convSpeed, matmulSpeed, type SpeedRow } from './gpu/kernel-speed.js';
import { launchOverhead, valueChangeCost } from './gpu/runtime-costs.js';
import { fixed, table } from './markdown.js';

const args = process.argv.slice(2);
const small = args.includes('--small');
const outIndex = args.indexOf('--out');
const outFile = outIndex >= 0 ? args[outIndex + 1] : undefined;
const SECTIONS = ['kernels', 'costs', 'collectives'] as const;
const sections = new Set(
  (process.env.BENCH_SECTIONS ?? SECTIONS.join(',')).split(',').map((x) => x.trim()),
);
for (const name of sections) {
  if (name && !(SECTIONS as readonly string[]).includes(name)) {
    throw new Error(`BENCH_SECTIONS: unknown section ${name} (${SECTIONS.join(', ')})`);
  }
}

const sizes = small
  ? {
      matmul: [128],
      conv: [128, 64],
      copy: 1 << 20,
      launches: 2,
      rounds: 2,
      samples: 3,
      warmUp: 100,
      batch: 20,
      collectivesLog2: 16,
      collectivePasses: 3,
    }
  : {
      matmul: [2048, 4096],
      conv: [4096, 4096],
      copy: 1 << 30,
      launches: 10,
      rounds: 3,
      samples: 100,
      warmUp: 20_000,
      batch: 1000,
      collectivesLog2: 28,
      collectivePasses: 20,
    };

/** Datasheet FP32 peaks (TFLOP/s, boost clock), by adapter description. */
function fp32Peak(description: string): { tflops: number; name: string } | null {
  const fromEnv = Number(process.env.BENCH_FP32_PEAK_TFLOPS);
  if (fromEnv > 0) return { tflops: fromEnv, name: 'BENCH_FP32_PEAK_TFLOPS' };
  if (/H100.*PCIe/i.test(description)) return { tflops: 51.2, name: 'H100 PCIe datasheet' };
  if (/H100/i.test(description)) return { tflops: 66.9, name: 'H100 SXM5 datasheet' };
  return null;
}

const bench = await benchDevice();
const { device, description } = bench;
const native = await Queue.create({ device, specConstants: 'native' });
const emulated = await Queue.create({ device, specConstants: 'emulated' });
const auto = await Queue.create({ device, specConstants: 'auto' });
const log = (line: string) => console.log(line);
log(`adapter: ${description}`);

const copy = await copyBandwidth(bench, sizes.copy, 15);
log(
  `copy: ${fixed(copy.gbs, 0)} GB/s median, ${fixed(copy.bestGbs, 0)} best (read + written); one submit per pass: ${fixed(copy.perSubmitGbs, 0)}; 15 copies in one pass: ${fixed(copy.onePassGbs, 0)}`,
);
const options = { bench, native, emulated, launches: sizes.launches, rounds: sizes.rounds };
const speed: SpeedRow[] = [];
if (sections.has('kernels')) {
  for (const n of sizes.matmul) {
    speed.push(...(await matmulSpeed(options, n)));
    log(`matmul ${n} done`);
  }
  speed.push(...(await convSpeed(options, sizes.conv[0]!, sizes.conv[1]!)));
  log('conv done');
}
const costs = sections.has('costs')
  ? {
      ...(await valueChangeCost(native, emulated, auto, sizes.samples, sizes.warmUp)),
      overhead: await launchOverhead(native, emulated, sizes.batch, sizes.rounds + 2),
    }
  : null;
const collectiveSelection = collectiveOptions(sizes.collectivesLog2);
const collectives: CollectiveRow[] = sections.has('collectives')
  ? await collectiveRows(device, {
      ...collectiveSelection,
      repetitions: sizes.collectivePasses,
      log,
    })
  : [];

const peak = fp32Peak(description);
const speedRows = speed.map((r) => {
  const literal = speed.find((l) => l.kernel === r.kernel && l.variant === 'literal')!;
  const matmul = r.kernel.startsWith('matmul');
  let rate: string;
  let share: string;
  if (matmul) {
    const n = Number(r.kernel.split(' ')[1]);
    const tflops = (2 * n ** 3) / r.us / 1e6;
    rate = `${fixed(tflops, 2)} TFLOP/s`;
    share = peak ? `${fixed((100 * tflops) / peak.tflops, 0)}% of FP32 peak` : '';
  } else {
    const [w, h] = r.kernel.split(' ')[1]!.split('x').map(Number) as [number, number];
    const gbs = (2 * 4 * w * h) / r.us / 1e3;
    rate = `${fixed(gbs, 0)} GB/s`;
    share = `${fixed((100 * gbs) / copy.gbs, 0)}% of copy`;
  }
  return [
    r.kernel,
    r.variant,
    fixed(r.us, 1),
    `${fixed(r.us / literal.us, 3)}x`,
    rate,
    share,
    `${r.error.toExponential(1)} (${r.checked})`,
  ];
});
const speedups = [...new Set(speed.map((r) => r.kernel))].map((kernel) => {
  const of = (v: string) => speed.find((r) => r.kernel === kernel && r.variant === v)!.us;
  return `${kernel}: native ${fixed(of('uniform') / of('native'), 2)}x faster than uniform arguments, ${fixed(of('emulated') / of('native'), 2)}x faster than emulated; native/literal ${fixed(of('native') / of('literal'), 3)}`;
});

const command = `node bench/out/gpu-suite.mjs${args.length ? ` ${args.join(' ')}` : ''}`;
const section: string[] = [
  `Adapter: ${description}. Host: ${hostname()}, Node ${process.version}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Command: \`${command}\`${bench.timer.gpu ? '' : ' (no timestamp queries on this adapter: host times per launch)'}.`,
  '',
  `Copy bandwidth (vec4f copy kernel over ${copy.bytes / 2 ** 20} MiB, bytes read + bytes written = ${(2 * copy.bytes) / 2 ** 20} MiB a pass; 15 passes in one submission, each with its own timestamps, after about 300 ms of warm-up copies): **${fixed(copy.gbs, 0)} GB/s** median (${fixed(copy.times.median, 1)} µs), ${fixed(copy.bestGbs, 0)} GB/s best (${fixed(copy.times.best, 1)} µs); the same passes submitted one by one: ${fixed(copy.perSubmitGbs, 0)} GB/s median (${fixed(copy.perSubmitUs, 1)} µs); 15 copies as the dispatches of one pass, its time over 15: ${fixed(copy.onePassGbs, 0)} GB/s (${fixed(copy.onePassUs, 1)} µs, median of 3 such passes).${peak ? ` FP32 peak used for the matrix multiply: ${peak.tflops} TFLOP/s (${peak.name}).` : ''}`,
  '',
];
if (speed.length) {
  section.push(
    `Kernel speed: GPU timestamps around each launch's compute pass, median of ${sizes.launches * sizes.rounds} launches (${sizes.rounds} interleaved rounds); outputs poisoned with NaN and checked against a float64 reference before timing (max error relative to the sum of term magnitudes, entries checked).`,
    '',
    table(
      ['kernel', 'constants', 'median µs', 'vs literal', 'rate', 'of ceiling', 'max rel. error'],
      speedRows,
      'llrrrrr',
    ),
    '',
    ...speedups.map((s) => `- ${s}`),
    '',
  );
}
if (costs) {
  section.push(
    `Value-change cost: host time from submit to completion of one launch of the 3x3 convolution over 64 x 4 pixels (one workgroup), median of ${sizes.samples}, after ${sizes.warmUp.toLocaleString('en')} warm-up launches of each kind that makes no pipeline (direct, a value set seen before, emulated), each waited for, in turn; the first two rows sampled in turn (one launch of each, then the next).`,
    '',
    table(
      ['launch', 'median µs', 'vs direct', 'pipelines created'],
      costs.rows.map((r) => [
        r.what,
        fixed(r.us, 1),
        `${fixed(r.us / costs.rows[0]!.us, 2)}x`,
        String(r.pipelines),
      ]),
    ),
    '',
    `Tiered specialisation ('auto'), a new value set with the emulated pipeline made: the first launch completed in ${fixed(costs.takeover.firstUs, 1)} µs (${fixed(costs.takeover.vsEmulated, 2)}x an emulated launch with a new value set made just before it); the native pipeline took over at launch ${costs.takeover.launches}, ${fixed(costs.takeover.ms, 1)} ms after the first (launches waited for one by one; medians of 9 value sets).`,
    '',
    `Host overhead per launch: batches of ${sizes.batch} launches of the same convolution issued without waiting, then one wait; medians of ${sizes.rounds + 2} rounds (the rows in turn), each batch started with the young generation of garbage collected and its finalizers run.`,
    '',
    table(
      [
        'launch',
        'host µs to issue',
        'µs per launch until done',
        'vs direct, submit each',
        'vs direct, one pass',
      ],
      costs.overhead.map((r) => [
        r.what,
        fixed(r.issueUs, 2),
        fixed(r.doneUs, 2),
        `${fixed(r.doneUs / costs.overhead[0]!.doneUs, 2)}x`,
        `${fixed(r.doneUs / costs.overhead[1]!.doneUs, 2)}x`,
      ]),
    ),
    '',
  );
}
if (collectives.length) {
  const copyRate = copy.gbs;
  section.push(
    `Hand-written WGSL collectives (bench/src/gpu/collectives/; the workgroup shapes: \`subgroup\` uses WGSL sub-group built-ins, \`workgroup\` workgroup memory only): each row's output poisoned and checked against a CPU reference first, then ${sizes.collectivePasses} runs recorded into one submission after about 300 ms of warm-up runs, each timed from its first compute pass's beginning to its last pass's end (per-pass timestamps; buffer clears before the first pass are not timed). GB/s counts the bytes named in the row; "of copy" is that rate over the copy ceiling's read + written rate above (${fixed(copyRate, 0)} GB/s median).`,
    '',
    table(
      [
        'operation',
        'variant',
        'median µs',
        'best µs',
        'rate (median)',
        'bytes counted',
        'of copy',
        'checked',
      ],
      [
        [
          `copy vec4f ${copy.bytes / 2 ** 20} MiB (the ceiling)`,
          'passes in one submission',
          fixed(copy.times.median, 1),
          fixed(copy.times.best, 1),
          `${fixed(copy.gbs, 0)} GB/s`,
          'read + written',
          '100%',
          '',
        ],
        ...collectives.map((r) => {
          const gbs = r.bytes / r.times.median / 1e3;
          const rate = r.keys
            ? `${fixed(r.keys / 1e9, 2)} Gkeys/s (${fixed(gbs, 0)} GB/s)`
            : `${fixed(gbs, 0)} GB/s`;
          return [
            r.operation,
            r.variant,
            fixed(r.times.median, 1),
            fixed(r.times.best, 1),
            rate,
            r.counted,
            `${fixed((100 * gbs) / copyRate, 0)}%`,
            r.check,
          ];
        }),
      ],
      'llrrrlrl',
    ),
    '',
  );
}
const text = section.join('\n').trimEnd();
console.log(`\n${text}`);
if (outFile) writeFileSync(outFile, `${text}\n`);
native.device.destroy();
process.exit(0);
