/**
 * The blur in the browser: a canvas in, a WebGPU canvas out (no read-back), a slider for the
 * radius, and the frames of a live video blurred as they come. On load the page checks the
 * texture, the output canvas and a video frame against the CPU reference.
 */
import { type DeviceTexture, type ExternalImage, Queue } from '@syclts/runtime';
import { blurFrame, blurTexture } from './blurrer.ts';
import { blurOnCpu, maxDifference, TOLERANCE } from './reference.ts';

export interface PageResult {
  readonly adapter: string;
  readonly radius: number;
  /** The blurred texture against the CPU reference, in levels of 255. */
  readonly textureError: number;
  /** A video frame of the input, blurred, against the CPU reference. */
  readonly videoError: number;
  /** Sources that `queue.texture(image)` copied with other texels than the canvas's. */
  readonly badSources: readonly string[];
  readonly ok: boolean;
}

declare global {
  interface Window {
    /** The load-time check, for automated tests. */
    sycltsExample?: Promise<unknown>;
  }
}

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const input = element<HTMLCanvasElement>('input');
const output = element<HTMLCanvasElement>('output');
const video = element<HTMLVideoElement>('video');
const videoOutput = element<HTMLCanvasElement>('video-output');
const slider = element<HTMLInputElement>('radius');
const { width, height } = input;

/** A scene with edges and fine detail, fresh noise on every load, and shapes at `t` seconds. */
function drawScene(context: CanvasRenderingContext2D, t: number, noise: boolean): void {
  const sky = context.createLinearGradient(0, 0, 0, height);
  sky.addColorStop(0, '#5b8def');
  sky.addColorStop(1, '#f2d492');
  context.fillStyle = sky;
  context.fillRect(0, 0, width, height);
  for (let i = 0; i < 6; i++) {
    context.fillStyle = `hsl(${i * 60}, 80%, 50%)`;
    const x = (width / 2) * (1 + Math.sin(t + i)) - 16;
    context.fillRect(x, 20 + i * 26, 32, 18);
  }
  context.fillStyle = '#111';
  for (let x = 8; x < width; x += 8) context.fillRect(x, height - 40, 2 + (x % 5), 30);
  if (!noise) return;
  const image = context.getImageData(0, 0, width, height);
  for (let i = 0; i < image.data.length; i += 4) {
    if (Math.random() < 0.05) image.data.fill((Math.random() * 256) | 0, i, i + 3);
  }
  context.putImageData(image, 0, 0);
}

async function main(): Promise<PageResult> {
  const queue = await Queue.create();
  element('adapter').textContent = queue.adapterDescription;
  const context = input.getContext('2d', { willReadFrequently: true })!;
  drawScene(context, 0, true);
  const pixels = context.getImageData(0, 0, width, height).data;
  const src = queue.texture(input);
  const dst = queue.texture({ format: 'rgba8unorm', size: [width, height] });
  const radius = Number(slider.value);

  blurTexture(queue, src, dst, radius);
  dst.toCanvas(output);
  const blurred = await dst.read();
  const reference = blurOnCpu(width, height, pixels, radius);
  const textureError = maxDifference(blurred, reference);

  const frame = new VideoFrame(input, { timestamp: 0 });
  const fromVideo = queue.texture({ format: 'rgba8unorm', size: [width, height] });
  blurFrame(queue, frame, fromVideo, radius);
  const videoError = maxDifference(await fromVideo.read(), reference);
  frame.close();

  // The same pixels from every other kind of image a texture can be made from.
  const offscreen = new OffscreenCanvas(width, height);
  offscreen.getContext('2d')!.drawImage(input, 0, 0);
  const sources: Record<string, ExternalImage> = {
    ImageBitmap: await createImageBitmap(input),
    ImageData: context.getImageData(0, 0, width, height),
    OffscreenCanvas: offscreen,
  };
  const badSources: string[] = [];
  for (const [name, image] of Object.entries(sources)) {
    const copy = queue.texture(image);
    if (maxDifference(await copy.read(), pixels) !== 0) badSources.push(name);
    copy.destroy();
  }

  slider.addEventListener('input', () => {
    element('radius-value').textContent = slider.value;
    blurTexture(queue, src, dst, Number(slider.value));
    dst.toCanvas(output);
  });
  playVideo(queue);
  const ok = textureError <= TOLERANCE && videoError <= TOLERANCE && badSources.length === 0;
  const check = element('check');
  check.textContent = ok
    ? `the texture and a video frame match the CPU reference (${textureError} and ${videoError} levels of 255 at most)`
    : `FAILED: texture ${textureError}, video frame ${videoError} levels of 255; sources ${badSources.join(', ') || 'all right'}`;
  check.className = ok ? 'ok' : 'bad';
  return { adapter: queue.adapterDescription, radius, textureError, videoError, badSources, ok };
}

/** An animated canvas played as a video, each frame blurred onto a canvas as it arrives. */
function playVideo(queue: Queue): void {
  const animated = document.createElement('canvas');
  animated.width = width;
  animated.height = height;
  const context = animated.getContext('2d')!;
  const start = performance.now();
  const animate = () => {
    drawScene(context, (performance.now() - start) / 500, false);
    requestAnimationFrame(animate);
  };
  animate();
  showVideo(queue, animated.captureStream(30));
  element('webcam').addEventListener('click', async () => {
    showVideo(queue, await navigator.mediaDevices.getUserMedia({ video: { width, height } }));
  });
}

let frames = 0;
let target: DeviceTexture | null = null;

function showVideo(queue: Queue, stream: MediaStream): void {
  video.srcObject = stream;
  void video.play();
  const onFrame = () => {
    if (video.videoWidth > 0) {
      if (target?.size[0] !== video.videoWidth || target.size[1] !== video.videoHeight) {
        target?.destroy();
        target = queue.texture({
          format: 'rgba8unorm',
          size: [video.videoWidth, video.videoHeight],
        });
        videoOutput.width = video.videoWidth;
        videoOutput.height = video.videoHeight;
      }
      // The frame is imported when the launch is submitted, within this callback.
      blurFrame(queue, video, target, Number(slider.value));
      target.toCanvas(videoOutput);
      element('frames').textContent = String(++frames);
    }
    video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
}

window.sycltsExample = main().catch((error: unknown) => {
  const check = element('check');
  check.textContent = String(error);
  check.className = 'bad';
  return { error: String(error) };
});
