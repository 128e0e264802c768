/**
 * examples/convolution in the page: its kernel and host code (Convolver) on the example's
 * generated scene, every filter in both modes, each checked against the CPU and drawn.
 */
import { Queue } from '@syclts/runtime';
import { Convolver } from '../../examples/convolution/src/convolver.ts';
import {
  convolveOnCpu,
  FILTER_NAMES,
  FILTERS,
  maxDifference,
  TOLERANCE,
} from '../../examples/convolution/src/filters.ts';
import { sceneImage, toRgba8 } from '../../examples/convolution/src/image.ts';
import { addCanvas, type Print } from '../.vitepress/theme/live.ts';

export const SIZE = { width: 48, height: 32 };

export async function run(print: Print, area: HTMLElement) {
  const image = sceneImage(SIZE.width, SIZE.height);
  const native = await Queue.create({ specConstants: 'native' });
  const emulated = await Queue.create({ device: native.device, specConstants: 'emulated' });
  const convolver = new Convolver(native, image);
  print(`adapter: ${native.adapterDescription}`);
  const draw = (caption: string, pixels: Float32Array) =>
    addCanvas(area, caption, image.width, image.height, 3).putImageData(
      new ImageData(toRgba8(pixels), image.width, image.height),
      0,
      0,
    );
  draw('input', image.pixels);

  const outputs: Record<string, number[]> = {};
  const checks: { mode: string; filter: string; maxError: number }[] = [];
  for (const [mode, queue] of [
    ['native', native],
    ['emulated', emulated],
  ] as const) {
    for (const filter of FILTER_NAMES) {
      const { output, milliseconds } = await convolver.run(queue, FILTERS[filter]);
      const maxError = maxDifference(output, convolveOnCpu(image, FILTERS[filter]));
      checks.push({ mode, filter, maxError });
      print(
        `${`${filter} (${mode}):`.padEnd(20)}max error ${maxError.toExponential(1)}, ${milliseconds.toFixed(2)} ms`,
      );
      if (mode === 'native') {
        outputs[filter] = Array.from(output);
        draw(filter, output);
      }
    }
  }
  const ok = checks.every((check) => check.maxError <= TOLERANCE);
  print(ok ? `check: every filter within ${TOLERANCE} of the CPU` : 'check: FAILED');
  return { ...SIZE, checks, outputs };
}
