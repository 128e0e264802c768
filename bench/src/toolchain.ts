/**
 * Toolchain scaling: transform and link time and peak memory for generated projects of many
 * `.sycl.ts` modules. Each size runs in a fresh Node process (peak RSS is per process).
 *
 *   node toolchain.mjs [sizes...]        the table (default 500 1000 5000)
 *   node toolchain.mjs --child N         one size, one JSON line
 *
 * A project: groups of ten modules; the first of each group is a library (a device function and
 * a specialization constant), the other nine each import both from it and declare their own
 * specialization constant, device global and kernel. Transform = what the plugin does per module
 * (compileModule, reading imported modules through loadImport, plus the integration footer);
 * link = link() and emitProgram() over every module (per-module split, native and emulated WGSL).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DeviceObject } from '@syclts/compiler';
import {
  compileModule,
  emitProgram,
  integrationFooter,
  link,
  ModuleLoader,
} from '@syclts/compiler';
import { fixed, table } from './markdown.js';

function librarySource(i: number): string {
  return `import { deviceFunction, f32, specializationId } from '@syclts/dsl';

export const bias${i} = specializationId(f32, ${i % 97}.25);

/** Smooth step scaled by the group's bias. */
export const shape${i} = deviceFunction({ args: [f32, f32], returns: f32 }, (x, k) => {
  const t = x * x * (3 - 2 * x);
  return t * k + ${i % 13};
});
`;
}

function kernelSource(i: number, library: number): string {
  return `import { accessor, atomic, atomicAdd, deviceGlobal, f32, kernel, specializationId, u32 } from '@syclts/dsl';
import { bias${library}, shape${library} } from './m${library}.sycl.ts';

export const gain${i} = specializationId(f32, ${(i % 31) + 0.5});
export const taps${i} = specializationId(u32, ${(i % 5) + 2});
export const hits${i} = deviceGlobal(atomic(u32), { hostAccess: 'read' });

export const k${i} = kernel(
  { range: 1, args: { src: accessor(f32, 'read'), dst: accessor(f32, 'write'), scale: f32 } },
  (item, kh, { src, dst, scale }) => {
    const i = item.getId(0);
    const taps = kh.getSpecializationConstant(taps${i});
    let acc = f32(0);
    for (let t = u32(0); t < taps; t++) {
      acc += src[i + t]! * kh.getSpecializationConstant(gain${i});
    }
    if (acc > scale) {
      atomicAdd(hits${i}, 1);
    }
    dst[i] = shape${library}(acc, kh.getSpecializationConstant(bias${library})) * scale;
  },
);
`;
}

/** Every import of a generated module is './mN.sycl.ts', a sibling in src/. */
function siblingResolver(known: ReadonlyMap<string, unknown>) {
  return (_from: string, specifier: string): string | null => {
    const module = `src/${specifier.slice(2)}`;
    return known.has(module) ? module : null;
  };
}

interface Sample {
  readonly modules: number;
  readonly transformMs: number;
  readonly linkMs: number;
  /** CPU time of the process (user + system), less sensitive than wall time to a loaded machine. */
  readonly transformCpuMs: number;
  readonly linkCpuMs: number;
  readonly peakRssMiB: number;
  readonly wgslKiB: number;
}

function runSize(modules: number): Sample {
  const sources = new Map<string, string>();
  for (let i = 0; i < modules; i++) {
    const library = i - (i % 10);
    sources.set(`src/m${i}.sycl.ts`, i === library ? librarySource(i) : kernelSource(i, library));
  }
  const resolveSource = siblingResolver(sources);
  const loadImport = (from: string, specifier: string) => {
    const module = resolveSource(from, specifier);
    return module === null ? null : { module, source: sources.get(module)! };
  };
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const c0 = cpuMs();
  const t0 = performance.now();
  const objects = new Map<string, DeviceObject>();
  // One loader for the build, as the plugin keeps: each module is parsed once.
  const loader = new ModuleLoader();
  let footers = 0;
  for (const [module, source] of sources) {
    const { object, diagnostics } = compileModule(source, { module, loadImport, loader });
    if (!object) throw new Error(`${module}: ${diagnostics.map((d) => d.message).join('; ')}`);
    footers += integrationFooter(object, { programModule: '~syclts/program', source }).length;
    objects.set(module, object);
  }
  const t1 = performance.now();
  const c1 = cpuMs();
  const linked = link(
    { modules: objects, resolveImport: siblingResolver(objects) },
    { specConstants: 'both' },
  );
  if (linked.diagnostics.some((d) => d.severity === 'error')) {
    throw new Error(linked.diagnostics.map((d) => d.message).join('; '));
  }
  const program = emitProgram(linked);
  const t2 = performance.now();
  const c2 = cpuMs();
  let wgsl = 0;
  for (const image of program.images)
    wgsl += (image.wgsl.native?.length ?? 0) + (image.wgsl.emulated?.length ?? 0);
  if (footers === 0) throw new Error('no footers');
  return {
    modules,
    transformMs: t1 - t0,
    linkMs: t2 - t1,
    transformCpuMs: c1 - c0,
    linkCpuMs: c2 - c1,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    wgslKiB: wgsl / 1024,
  };
}

export function toolchainTable(sizes: readonly number[]): string {
  const script = fileURLToPath(import.meta.url);
  const samples: Sample[] = sizes.map((n) =>
    JSON.parse(
      execFileSync(process.execPath, [script, '--child', String(n)], { encoding: 'utf8' }),
    ),
  );
  const base = samples[0]!;
  const cpu = (s: Sample) => s.transformCpuMs + s.linkCpuMs;
  const rows = samples.map((s) => [
    String(s.modules),
    `${fixed(s.transformMs, 0)} / ${fixed(s.transformCpuMs, 0)}`,
    fixed(s.transformCpuMs / s.modules, 2),
    `${fixed(s.linkMs, 0)} / ${fixed(s.linkCpuMs, 0)}`,
    `${fixed(s.transformMs + s.linkMs, 0)} / ${fixed(cpu(s), 0)}`,
    `${fixed((s.transformMs + s.linkMs) / (base.transformMs + base.linkMs), 2)}x / ${fixed(cpu(s) / cpu(base), 2)}x`,
    fixed(s.peakRssMiB, 0),
    fixed(s.wgslKiB, 0),
  ]);
  return [
    `Generated projects (groups of ten modules: one library with a device function and a specialization constant, nine kernel modules importing it, each with two specialization constants and a device global). Transform: \`compileModule\` (imported modules read through \`loadImport\`, one \`ModuleLoader\` for the build as the plugin keeps, so each module is parsed once) and the integration footer, per module, as the plugin runs them; link: \`link\` and \`emitProgram\` over all modules (per-module images, native and emulated WGSL). One fresh Node process per size; CPU time is the process's user + system time, the figure to compare on a shared machine.`,
    '',
    table(
      [
        'modules',
        'transform ms (wall / CPU)',
        'CPU ms / module',
        'link + emit ms (wall / CPU)',
        'total ms (wall / CPU)',
        `total vs ${base.modules} (wall / CPU)`,
        'peak RSS MiB',
        'WGSL KiB',
      ],
      rows,
    ),
  ].join('\n');
}

const childIndex = process.argv.indexOf('--child');
if (childIndex >= 0) {
  console.log(JSON.stringify(runSize(Number(process.argv[childIndex + 1]))));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = process.argv.slice(2).map(Number);
  console.log(toolchainTable(sizes.length ? sizes : [500, 1000, 5000]));
}
