/** A canvas in, blurred on the GPU, a WebGPU canvas out; the texels read back for the check. */
import { Queue } from '@syclts/runtime';
import { addCanvas, type Print } from '../.vitepress/theme/live.ts';
import { blur, radius } from './images.sycl.ts';

export async function run(print: Print, area: HTMLElement) {
  const [width, height, r] = [96, 64, 3];
  // The input: stripes and squares on a 2D canvas.
  const input = addCanvas(area, 'input (a 2D canvas)', width, height, 3);
  for (let x = 0; x < width; x += 8) {
    input.fillStyle = x % 16 === 0 ? '#1d4ed8' : '#f59e0b';
    input.fillRect(x, 0, 8, height);
  }
  input.fillStyle = '#111';
  input.fillRect(24, 16, 32, 32);
  const pixels = Array.from(input.getImageData(0, 0, width, height).data);

  const queue = await Queue.create();
  const src = queue.texture(input.canvas); // copies the canvas into an rgba8unorm texture
  const dst = queue.texture({ format: 'rgba8unorm', size: [width, height] });
  queue.submit((cgh) => {
    cgh.setSpecializationConstant(radius, r);
    cgh.parallelFor([height, width], blur, { src, dst });
  });

  // Out to a canvas, no read-back: toCanvas configures its WebGPU context and copies.
  const output = document.createElement('canvas');
  [output.width, output.height] = [width, height];
  output.style.width = `${width * 3}px`;
  area.append(output);
  dst.toCanvas(output);

  const blurred = Array.from(await dst.read());
  print(`blurred ${width} x ${height} texels with radius ${r}`);
  return { width, height, radius: r, pixels, blurred };
}
