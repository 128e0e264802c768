/**
 * The fuzzer's Dawn process: given WGSL modules and the pipelines to create from them, answers
 * with the first error Dawn reports, or none. Dawn runs in a process of its own so that a
 * crash of Dawn is told apart from a crash of the compiler. It uses the test adapter (Dawn on
 * SwiftShader in CI, found as the tests find it).
 */
import { requestAdapter } from '@syclts/runtime';
import { runsSubgroups } from '../support/lowerings.js';
import type { DawnJob, DawnVerdict } from './check.js';

// The toggle lets Dawn offer shader-f16 on NVIDIA through Vulkan (it changes nothing elsewhere).
const { adapter } = await requestAdapter({
  dawnToggles: { enable: ['vulkan_enable_f16_on_nvidia'] },
});
// f16 where the adapter has it, as the runtime asks for it. Where it has not (SwiftShader), a
// module that enables f16 cannot be checked, and is counted as skipped.
const f16 = adapter.features.has('shader-f16');
const device = await adapter.requestDevice({
  requiredFeatures: (['shader-f16', 'subgroups', 'subgroup-size-control'] as const).filter((f) =>
    adapter.features.has(f),
  ),
});

/**
 * Verdicts by job: Dawn's answer for the same WGSL and pipelines is the same, and hostile inputs
 * repeat. Bounded, so a long run's memory stays flat.
 */
const seen = new Map<string, DawnVerdict>();

async function checkOnce(job: DawnJob): Promise<DawnVerdict> {
  const key = JSON.stringify(job);
  const known = seen.get(key);
  if (known) return known;
  const verdict = await check(job);
  if (seen.size >= 2000) seen.clear();
  if (key.length < 200_000) seen.set(key, verdict);
  return verdict;
}

async function check(job: DawnJob): Promise<DawnVerdict> {
  let pipelines = 0;
  let skipped = 0;
  for (const { label, code, pipelines: wanted, subGroupSizes } of job.modules) {
    // What the device cannot run the runtime does not give it (the other lowering runs instead).
    if (
      (!f16 && /^enable f16;/m.test(code)) ||
      (subGroupSizes && !runsSubgroups(device, subGroupSizes))
    ) {
      skipped++;
      continue;
    }
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ code });
    const moduleError = await device.popErrorScope();
    const info = await module.getCompilationInfo();
    const first = info.messages.find((m) => m.type === 'error');
    if (first || moduleError) {
      const where = first ? `${first.lineNum}:${first.linePos} ` : '';
      return {
        error: {
          stage: 'shader module',
          label,
          message: `${where}${first?.message ?? moduleError!.message}`,
        },
        pipelines,
        skipped,
      };
    }
    for (const p of wanted) {
      device.pushErrorScope('internal');
      device.pushErrorScope('validation');
      const layout = device.createBindGroupLayout({
        entries: p.entries.map((e) => ({
          binding: e.binding,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type: e.type },
        })),
      });
      device.createComputePipeline({
        layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
        compute: { module, entryPoint: p.entryPoint, constants: p.constants },
      });
      const validation = await device.popErrorScope();
      const internal = await device.popErrorScope();
      pipelines++;
      const error = validation ?? internal;
      if (error) {
        return {
          error: { stage: 'pipeline', label: `${label} ${p.entryPoint}`, message: error.message },
          pipelines,
          skipped,
        };
      }
    }
  }
  return { error: null, pipelines, skipped };
}

process.on('message', (job: DawnJob) => {
  checkOnce(job).then(
    (verdict) => process.send!(verdict),
    (e: unknown) =>
      process.send!({
        error: {
          stage: 'checker',
          label: '',
          message: e instanceof Error ? (e.stack ?? e.message) : String(e),
        },
        pipelines: 0,
        skipped: 0,
      }),
  );
});
// Dawn may crash at exit while a device is alive: release it when the pool lets go.
// Ctrl-C in a terminal reaches the whole process group: the pool decides when workers end.
process.on('SIGINT', () => {});
process.on('disconnect', () => {
  device.destroy();
  process.exit(0);
});
process.send!('ready');
