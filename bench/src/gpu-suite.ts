/**
 * The GPU suite: copy bandwidth, kernel speed (matrix multiply, 3x3 convolution; native,
 * emulated, uniform arguments, the same arguments under adaptive specialization, literal WGSL;
 * the launch that starts adaptive specialization), value-change cost and host overhead per
 * launch.
 * Writes a Markdown section (adapter, date, command) to --out, and prints it.
 *
 *   node gpu-suite.mjs [--small] [--out FILE]
 *
 * --small runs tiny sizes (for a software adapter; same code path, same checks).
 * BENCH_SECTIONS=kernels,costs,collectives,tensor (default all) selects the sections after the copy
 * ceiling, which is always measured: kernel speed (matmul, conv), value-change and launch costs,
 * hand-written collectives (rows and sizes: BENCH_COLLECTIVES, BENCH_COLLECTIVES_LOG2, see
 * gpu/collective-rows.ts), tensor cores (tensor-cores.mjs, with SYCLTS_ADAPTER=hardware).
 *
 * Each process of the suite (and each process it starts) gets an empty NVIDIA shader disk cache
 * (__GL_SHADER_DISK_CACHE_PATH, a fresh folder) unless BENCH_SHADER_CACHE=keep: a new value set
 * then costs what it costs the first time. The suite starts two scripts bundled beside it, each
 * in processes of its own: bench/gpu/bandwidth.mjs (the copy ceiling timed standalone, the
 * check row of the ceiling) and cold-path.mjs (launches of a process that has run nothing before;
 * with the `costs` section).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from '@syclts/runtime';
import { adaptive as adaptiveSpecialization, STABLE_LAUNCHES } from '@syclts/runtime/adaptive';
import { adaptiveTrigger, type TriggerCost } from './gpu/adaptive-trigger.js';
import { copyBandwidth } from './gpu/bandwidth.js';
import { type CollectiveRow, collectiveOptions, collectiveRows } from './gpu/collective-rows.js';
import { benchDevice, median, secondDevice } from './gpu/device.js';
import { convSpeed, matmulSpeed, matmulWideSpeed, type SpeedRow } from './gpu/kernel-speed.js';
import { launchOverhead, valueChangeCost } from './gpu/runtime-costs.js';
import { fixed, table } from './markdown.js';

const args = process.argv.slice(2);
const small = args.includes('--small');
const outIndex = args.indexOf('--out');
const outFile = outIndex >= 0 ? args[outIndex + 1] : undefined;
const SECTIONS = ['kernels', 'costs', 'collectives', 'tensor'] as const;
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
      conv: [256, 64],
      copy: 1 << 20,
      launches: 2,
      rounds: 2,
      samples: 3,
      warmUp: 100,
      batch: 20,
      collectivesLog2: 16,
      collectivePasses: 3,
      collectiveMs: 0,
      triggers: 1,
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
      collectiveMs: 1500,
      triggers: 5,
    };

/** Datasheet FP32 peaks (TFLOP/s, boost clock), by adapter description. */
function fp32Peak(description: string): { tflops: number; name: string } | null {
  const fromEnv = Number(process.env.BENCH_FP32_PEAK_TFLOPS);
  if (fromEnv > 0) return { tflops: fromEnv, name: 'BENCH_FP32_PEAK_TFLOPS' };
  if (/H100.*PCIe/i.test(description)) return { tflops: 51.2, name: 'H100 PCIe datasheet' };
  if (/H100/i.test(description)) return { tflops: 66.9, name: 'H100 SXM5 datasheet' };
  return null;
}

const here = dirname(fileURLToPath(import.meta.url));
const keepShaderCache = process.env.BENCH_SHADER_CACHE === 'keep';
/** An empty folder for the driver's shader disk cache (NVIDIA reads it when Dawn loads the driver). */
const freshShaderCache = () => mkdtempSync(join(tmpdir(), 'syclts-bench-shaders-'));
if (!keepShaderCache) process.env.__GL_SHADER_DISK_CACHE_PATH = freshShaderCache();
/** Runs a script bundled beside the suite in a process of its own; null where it is missing. */
function child(
  file: string,
  args: string[] = [],
  extra: Record<string, string> = {},
): string | null {
  const path = join(here, file);
  if (!existsSync(path)) return null;
  const env = { ...process.env, ...extra };
  if (!keepShaderCache) env.__GL_SHADER_DISK_CACHE_PATH = freshShaderCache();
  return execFileSync(process.execPath, [path, ...args], {
    cwd: here,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 << 20,
  });
}

const bench = await benchDevice();
const { device, description } = bench;
const native = await Queue.create({ device, specConstants: 'native' });
const emulated = await Queue.create({ device, specConstants: 'emulated' });
const auto = await Queue.create({ device, specConstants: 'auto' });
const adaptive = await Queue.create({ device, adaptive: adaptiveSpecialization });
const log = (line: string) => console.log(line);
log(`adapter: ${description}`);

const copy = await copyBandwidth(bench, sizes.copy, 15, small ? 200 : 2000);
const copyRate = (us: number) => (2 * copy.bytes) / us / 1e3;
log(
  `copy: ${fixed(copy.gbs, 0)} GB/s median, ${fixed(copy.bestGbs, 0)} best (read + written; the best of ${copy.roundMedians.length} rounds, first ${fixed(copyRate(copy.roundMedians[0]!), 0)}, last ${fixed(copyRate(copy.roundMedians.at(-1)!), 0)}); one submit per pass: ${fixed(copy.perSubmitGbs, 0)}; 15 copies in one pass: ${fixed(copy.onePassGbs, 0)}`,
);
log(`copy rounds' medians (µs): ${copy.roundMedians.map((m) => fixed(m, 0)).join(' ')}`);
// The same kernel timed by a standalone script in a process of its own, right after (the GPU
// warm), its rounds for as long: the check on the ceiling's figure. (bandwidth.mjs asks Dawn for
// a hardware adapter: with SYCLTS_ADAPTER=hardware only.)
const standaloneText =
  process.env.SYCLTS_ADAPTER === 'hardware' ? child('bandwidth.mjs', ['--seconds', '2']) : null;
const standaloneMatch = standaloneText?.match(
  /rounds: (\d+) in [\d.]+ s; first (\d+) GB\/s \(([\d.]+) us\), best (\d+) GB\/s \(([\d.]+) us, round (\d+)\), last (\d+) GB\/s/,
);
const standalone = standaloneMatch
  ? {
      rounds: Number(standaloneMatch[1]),
      firstGbs: Number(standaloneMatch[2]),
      firstUs: Number(standaloneMatch[3]),
      gbs: Number(standaloneMatch[4]),
      us: Number(standaloneMatch[5]),
      bestRound: Number(standaloneMatch[6]),
      lastGbs: Number(standaloneMatch[7]),
    }
  : null;
if (standaloneText) log(standaloneText.trimEnd());
log(
  standalone
    ? `copy, standalone process (bandwidth.mjs): best round ${standalone.gbs} GB/s median, first round ${standalone.firstGbs}; the suite's ceiling / standalone's best round: ${fixed(copy.gbs / standalone.gbs, 3)}`
    : `copy, standalone process: not run (${standaloneText === null ? 'no hardware adapter asked for, or no bandwidth.mjs beside the suite' : 'output not understood'})`,
);
const options = {
  bench,
  native,
  emulated,
  adaptive,
  launches: sizes.launches,
  rounds: sizes.rounds,
};
const speed: SpeedRow[] = [];
let trigger: TriggerCost | null = null;
if (sections.has('kernels')) {
  for (const n of sizes.matmul) {
    speed.push(...(await matmulSpeed(options, n)));
    log(`matmul ${n} done`);
  }
  speed.push(...(await matmulWideSpeed(options, sizes.matmul.at(-1)!)));
  log('matmul-wide done');
  // On a queue of its own, so that its value sets start their compiles there.
  trigger = await adaptiveTrigger(
    native,
    await Queue.create({ device, adaptive: adaptiveSpecialization }),
    sizes.matmul.at(-1)!,
    sizes.triggers,
    sizes.launches,
  );
  log(`adaptive trigger done`);
  speed.push(...(await convSpeed(options, sizes.conv[0]!, sizes.conv[1]!)));
  speed.push(...(await convSpeed(options, sizes.conv[0]!, sizes.conv[1]!, 'vec4')));
  log('conv done');
}
const costs = sections.has('costs')
  ? {
      ...(await valueChangeCost(
        native,
        emulated,
        auto,
        sizes.samples,
        sizes.warmUp,
        await Queue.create({ device: await secondDevice(), specConstants: 'native' }),
      )),
      overhead: await launchOverhead(native, emulated, sizes.batch, sizes.rounds + 2),
    }
  : null;
/** The new native value set against creating the same pipeline with direct calls, sampled in turn. */
function newValueRatios(rows: readonly { what: string; us: number }[]): string {
  const us = (start: string) => rows.find((r) => r.what.startsWith(start))!.us;
  const syclts = us('native, a new value set');
  const same = us('direct WebGPU: createComputePipeline (synchronous) of the WGSL');
  const literal = us('direct WebGPU: createComputePipeline (synchronous) of hand-written');
  return `A new native value set: ${fixed(syclts / same, 2)}x a synchronous creation of the same pipeline (the WGSL, layout and constants syclts made) with direct calls, ${fixed(syclts / literal, 2)}x one of hand-written WGSL with the values as literals (sampled in turn).`;
}

/** Cold path: launches of fresh processes (cold-path.mjs), three processes. */
const coldProcesses = 3;
const coldLaunches = 30;
const cold: { what: string; us: number[] }[][] = [];
if (sections.has('costs')) {
  for (let p = 0; p < coldProcesses; p++) {
    const text = child('cold-path.mjs', [String(coldLaunches)]);
    if (text === null) break;
    cold.push(JSON.parse(text.trim().split('\n').at(-1)!).rows);
  }
  log(`cold path: ${cold.length} processes`);
}
/**
 * Tensor cores: tensor-cores.mjs in processes of its own (it asks Dawn for the unsafe toggles
 * subgroup matrices need), with Dawn's robustness and without it; where the adapter offers no
 * f16 subgroup matrices, the reason it gives.
 */
const tensor: string[] = [];
if (sections.has('tensor') && process.env.SYCLTS_ADAPTER === 'hardware') {
  for (const robust of ['1', '0']) {
    try {
      const text = child('tensor-cores.mjs', [String(small ? 1024 : 4096)], { ROBUST: robust });
      if (text !== null)
        tensor.push(
          text
            .split('\n')
            .filter((l) => /^(\||Adapter)/.test(l))
            .join('\n'),
        );
    } catch (error) {
      tensor.push(
        `tensor-cores.mjs (ROBUST=${robust}) did not run: ${(error as Error).message.split('\n')[0]}`,
      );
    }
  }
  log('tensor cores done');
}
const collectiveSelection = collectiveOptions(sizes.collectivesLog2);
const collectives: CollectiveRow[] = sections.has('collectives')
  ? await collectiveRows(device, {
      ...collectiveSelection,
      repetitions: sizes.collectivePasses,
      steadyMs: sizes.collectiveMs,
      timer: bench.timer,
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
  const hand = speed.some((r) => r.kernel === kernel && r.variant === 'hand-written uniform')
    ? `; emulated ${fixed(of('emulated') / of('hand-written uniform'), 3)}x and uniform arguments ${fixed(of('uniform') / of('hand-written uniform'), 3)}x the hand-written uniform`
    : '';
  return `${kernel}: native ${fixed(of('uniform') / of('native'), 2)}x faster than uniform arguments, ${fixed(of('emulated') / of('native'), 2)}x faster than emulated; native/literal ${fixed(of('native') / of('literal'), 3)}; arguments under adaptive specialization, steady state: ${fixed(of('adaptive') / of('literal'), 3)}x literal, ${fixed(of('uniform') / of('adaptive'), 2)}x faster than the same arguments without it${hand}`;
});

const command = `node bench/out/gpu-suite.mjs${args.length ? ` ${args.join(' ')}` : ''}`;
const section: string[] = [
  `Adapter: ${description}. Host: ${hostname()}, Node ${process.version}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Command: \`${command}\`${bench.timer.gpu ? '' : ' (no timestamp queries on this adapter: host times per launch)'}.`,
  '',
  `Copy bandwidth (vec4f copy kernel over ${copy.bytes / 2 ** 20} MiB, bytes read + bytes written = ${(2 * copy.bytes) / 2 ** 20} MiB a pass; rounds of 15 passes in one submission, each pass with its own timestamps, after about 300 ms of warm-up copies, for about ${small ? 0.2 : 2} s; the round with the best median): **${fixed(copy.gbs, 0)} GB/s** median (${fixed(copy.times.median, 1)} µs), ${fixed(copy.bestGbs, 0)} GB/s best pass (${fixed(copy.times.best, 1)} µs); of ${copy.roundMedians.length} rounds, the first's median ${fixed(copyRate(copy.roundMedians[0]!), 0)} GB/s (${fixed(copy.roundMedians[0]!, 1)} µs), the last's ${fixed(copyRate(copy.roundMedians.at(-1)!), 0)} GB/s; the same passes submitted one by one: ${fixed(copy.perSubmitGbs, 0)} GB/s median (${fixed(copy.perSubmitUs, 1)} µs); 15 copies as the dispatches of one pass, its time over 15: ${fixed(copy.onePassGbs, 0)} GB/s (${fixed(copy.onePassUs, 1)} µs, median of 3 such passes). ${standalone ? `Check: the same kernel timed by a standalone script in a process of its own started right after (\`bench/gpu/bandwidth.mjs --seconds 2\`: rounds of 15 passes in one submission, per-pass timestamps, the first at once): best round ${standalone.gbs} GB/s median (${fixed(standalone.us, 1)} µs, round ${standalone.bestRound} of ${standalone.rounds}), first round ${standalone.firstGbs} GB/s (${fixed(standalone.firstUs, 1)} µs), last ${standalone.lastGbs} GB/s; the suite's ceiling is **${fixed(copy.gbs / standalone.gbs, 3)}x** the standalone best round.` : 'Check: no standalone timing (it runs with SYCLTS_ADAPTER=hardware and bandwidth.mjs beside the suite).'}${peak ? ` FP32 peak used for the matrix multiply: ${peak.tflops} TFLOP/s (${peak.name}).` : ''}`,
  '',
];
if (speed.length) {
  section.push(
    `Kernel speed: GPU timestamps around each launch's compute pass, median of ${sizes.launches * sizes.rounds} launches (${sizes.rounds} interleaved rounds; ${speed.every((r) => r.timed === sizes.launches * sizes.rounds) ? 'every launch timed' : `launches timed per row: ${speed.map((r) => `${r.kernel} ${r.variant} ${r.timed}`).join(', ')}`}); outputs poisoned with NaN and checked against a float64 reference before timing (max error relative to the sum of term magnitudes, entries checked).`,
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
if (trigger) {
  const ratios = trigger.triggerUs.map((us, i) => us / trigger!.ordinaryUs[i]!);
  section.push(
    `Adaptive specialization's trigger: the matrix multiply with plain kernel arguments on a queue with \`adaptive\`, host time from the call to completion (each launch waited for) of launch ${STABLE_LAUNCHES} of a value set, the one that starts the background compile, against the median of ${sizes.launches} ordinary argument launches of the same values on a queue without it, made after 300 ms of them (the GPU's clock climbs from idle); ${trigger.sizes.length} value sets (sizes ${trigger.sizes.join(', ')}, k step 8), each new to the device. Triggering launch / ordinary launch: **${fixed(median(ratios), 2)}x** median (${ratios.map((r) => `${fixed(r, 2)}x`).join(', ')}); the folded pipeline took over after ${trigger.takeover.map((t) => `${t.launches} launches (${fixed(t.ms, 1)} ms)`).join(', ')}.`,
    '',
    table(
      ['size', 'triggering launch µs', 'ordinary argument launch µs', 'ratio'],
      trigger.sizes.map((n, i) => [
        String(n),
        fixed(trigger!.triggerUs[i]!, 1),
        fixed(trigger!.ordinaryUs[i]!, 1),
        `${fixed(ratios[i]!, 2)}x`,
      ]),
    ),
    '',
  );
}
if (costs) {
  section.push(
    `Value-change cost: host time from submit to completion of one launch of the 3x3 convolution over 64 x 4 pixels (one workgroup), median of ${sizes.samples}, after ${sizes.warmUp.toLocaleString('en')} warm-up launches of each kind that makes no pipeline (direct, a value set seen before, emulated), each waited for, in turn; the first two rows sampled in turn (one launch of each, then the next), and the next three (a new pipeline each launch) likewise. Every new value set is nine random f32 values drawn in this process; ${keepShaderCache ? 'the driver shader cache was left as found (BENCH_SHADER_CACHE=keep)' : "the driver's shader disk cache was an empty folder of this process (`__GL_SHADER_DISK_CACHE_PATH`, NVIDIA)"}. The warm-cache row launches the value sets of the row above it again, on a second device of the same process with a queue of its own.`,
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
    newValueRatios(costs.rows),
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
if (cold.length) {
  // Launches 2 to 30 of each process (the first makes syclts's pipeline); medians per process.
  const later = (us: number[]) => us.slice(1);
  const perProcess = cold.map((rows) => rows.map((r) => median(later(r.us))));
  const pooled = cold[0]!.map((_, i) => median(cold.flatMap((rows) => later(rows[i]!.us))));
  section.push(
    `Cold path: ${cold.length} fresh processes (\`cold-path.mjs\`, started by the suite; no warm-up), each making its queue and kernels and then ${coldLaunches} launches of each row, one at a time, each waited for (host time from the call to completion), the ${cold[0]!.length} rows interleaved launch by launch with their order rotating; the convolution over 64 x 4 pixels, the second direct row writing its values into the kernel's uniform before each launch (what a host passing values per launch does). Launches 2 to ${coldLaunches} (syclts's first launch makes its pipeline; the direct pipeline was made before): median of each process, and of all of them pooled; first launch of each process beside.${keepShaderCache ? '' : ' Each process had an empty driver shader cache.'}`,
    '',
    table(
      [
        'launch',
        ...cold.map((_, p) => `process ${p + 1} µs`),
        'pooled µs',
        'vs direct (pooled)',
        'vs direct writing its values (pooled)',
        'vs direct per process',
        'first launch µs',
      ],
      cold[0]!.map((r, i) => [
        r.what,
        ...perProcess.map((m) => fixed(m[i]!, 1)),
        fixed(pooled[i]!, 1),
        `${fixed(pooled[i]! / pooled[0]!, 2)}x`,
        `${fixed(pooled[i]! / pooled[1]!, 2)}x`,
        perProcess.map((m) => `${fixed(m[i]! / m[0]!, 2)}x`).join(', '),
        cold.map((rows) => fixed(rows[i]!.us[0]!, 0)).join(', '),
      ]),
    ),
    '',
  );
}
if (collectives.length) {
  const ceiling = copy.gbs;
  section.push(
    `Hand-written WGSL collectives (bench/src/gpu/collectives/; the workgroup shapes: \`subgroup\` uses WGSL sub-group built-ins, \`workgroup\` workgroup memory only): each row's output poisoned and checked against a CPU reference first, then rounds of ${sizes.collectivePasses} runs recorded into one submission each, after about 300 ms of warm-up runs and for about ${sizes.collectiveMs / 1000} s, the round with the lowest median reported (the GPU's clock climbs from idle in steps that may hold for a second), each run timed from its first compute pass's beginning to its last pass's end (per-pass timestamps; buffer clears before the first pass are not timed). GB/s counts the bytes named in the row; "of copy" is that rate over the copy ceiling's read + written rate above (${fixed(ceiling, 0)} GB/s median).`,
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
            `${fixed((100 * gbs) / ceiling, 0)}%`,
            r.check,
          ];
        }),
      ],
      'llrrrlrl',
    ),
    '',
  );
}
if (tensor.length) {
  section.push(
    "Tensor cores (`tensor-cores.mjs`, one process each, with Dawn's robustness and with `disable_robustness`): the f16 x f16 -> f32 multiply of `examples/tensor-cores` on joint matrices in each of its tilings and of `kernels/tensor-regions.sycl.ts`, each beside hand-written WGSL of the same algorithm, and the fastest hand-written tiling, every pass timed after two seconds of load, outputs checked against float64 sums first.",
    '',
    ...tensor.flatMap((t) => [t, '']),
  );
}
const text = section.join('\n').trimEnd();
console.log(`\n${text}`);
if (outFile) writeFileSync(outFile, `${text}\n`);
native.device.destroy();
process.exit(0);
