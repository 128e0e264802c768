/**
 * The front end's corpus of valid modules, built together: every WGSL text must compile and
 * every kernel's pipeline must be creatable with the explicit layout its bindings describe.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { build, formatDiagnostic } from '../../src/index.js';
import { gpu } from '../support/gpu.js';
import { layoutEntries } from '../support/layout-entries.js';
import { runnableTexts } from '../support/lowerings.js';

const dir = new URL('../corpus/valid/', import.meta.url);
const sources = readdirSync(dir)
  .filter((f) => f.endsWith('.sycl.ts'))
  .sort()
  .map((file) => ({ module: `corpus/${file}`, source: readFileSync(new URL(file, dir), 'utf8') }));

// One image for the whole corpus: every cross-module name clash lands in one WGSL module.
test('the corpus links into one image whose WGSL compiles into every kernel pipeline', async () => {
  expect(sources.length).toBeGreaterThan(10);
  const { program, diagnostics } = build(sources, {
    specConstants: 'both',
    split: 'whole',
    validateIr: true,
  });
  expect(diagnostics.map((d) => formatDiagnostic(d))).toEqual([]);
  const { device } = await gpu();
  const problems: string[] = [];
  let pipelines = 0;
  for (const image of program!.images) {
    for (const [text, mode] of runnableTexts(device, image).flatMap((t) =>
      (['native', 'emulated'] as const).map((m) => [t, m] as const),
    )) {
      const code = text.wgsl[mode]!;
      const module = device.createShaderModule({ code });
      const messages = (await module.getCompilationInfo()).messages.filter(
        (m) => m.type === 'error',
      );
      problems.push(
        ...messages.map(
          (m) => `${image.id} (${mode}${text.label}) ${m.lineNum}:${m.linePos}: ${m.message}`,
        ),
      );
      for (const [id, kernel] of Object.entries(image.kernels)) {
        if (!kernel.variants.includes(mode)) continue;
        // Constants without a folded default need a value; any will do for creation.
        const constants: Record<string, number> = {};
        if (mode === 'native') {
          for (const c of Object.values(image.specConstants)) {
            if (c.defaultValue === null)
              for (const leaf of c.leaves) constants[String(leaf.id)] = 1;
          }
        }
        device.pushErrorScope('validation');
        device.createComputePipeline({
          layout: device.createPipelineLayout({
            bindGroupLayouts: [
              device.createBindGroupLayout({ entries: layoutEntries(image, kernel, mode) }),
            ],
          }),
          compute: { module, entryPoint: kernel.entryPoint, constants },
        });
        const error = await device.popErrorScope();
        if (error) problems.push(`${id} (${mode}${text.label}): ${error.message}`);
        pipelines++;
      }
    }
  }
  expect(problems).toEqual([]);
  expect(pipelines).toBeGreaterThan(20);
});
