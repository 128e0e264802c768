/**
 * A three.js scene (`WebGPURenderer`) whose particles a syclts kernel moves, in the storage
 * buffer three.js draws from. See README.md for the three.js internals this relies on and the
 * order of launches and renders.
 */
import { vec4f } from '@syclts/dsl';
import { build, getKernelBundle, Queue } from '@syclts/runtime';
import { clamp, color, float, length, mix, storage } from 'three/tsl';
import * as THREE from 'three/webgpu';
import { SOFTENING, step, strength } from './particles.sycl.ts';
import { initialState, maxDifference, simulate } from './simulation.ts';

declare global {
  interface Window {
    /** The run's report, for automated tests. */
    sycltsExample?: Promise<unknown>;
  }
}

export interface Report {
  adapter: string;
  count: number;
  /** Steps taken before the positions were read back (and the frame drawn from them). */
  frames: number;
  dt: number;
  strength: number;
  softening: number;
  /** xyzw per particle, before the first step. */
  initial: { positions: number[]; velocities: number[] };
  /** xyzw per particle, read back from the buffer three.js draws from after `frames` steps. */
  positions: number[];
  /** Column-major, as three.js keeps them: world to view, view to clip. */
  camera: { view: number[]; projection: number[] };
  /** The canvas's size in CSS pixels. */
  canvas: { width: number; height: number };
  /** The largest difference from the page's CPU reference, and whether it is within `tolerance`. */
  maxError: number;
  tolerance: number;
  ok: boolean;
}

/** What this example reads of three.js's WebGPU backend beyond its documented API. */
interface WebGPUBackend {
  readonly isWebGPUBackend?: boolean;
  readonly device: GPUDevice;
  /** The backend's data for an object: a buffer attribute's holds its GPUBuffer once created. */
  get(object: object): { buffer?: GPUBuffer };
}

const DT = 0.01;
const STRENGTH = 1;
/** The page's check: f32 on the device and on the CPU drift apart a little over the steps. */
const TOLERANCE = 1e-4;

const element = (id: string) => document.getElementById(id)!;
const query = new URLSearchParams(location.search);
const count = Number(query.get('count') ?? 4096);
/** `?frames=N`: stop after N steps (the frame on screen then shows what was read back). */
const stopAfter = query.has('frames') ? Number(query.get('frames')) : null;
const checkAfter = stopAfter ?? 120;

async function main(): Promise<Report> {
  const canvas = element('scene') as HTMLCanvasElement;
  const renderer = new THREE.WebGPURenderer({ canvas, antialias: false });
  renderer.setPixelRatio(window.devicePixelRatio);
  renderer.setSize(canvas.width, canvas.height);
  await renderer.init();
  const backend = renderer.backend as unknown as WebGPUBackend;
  if (!backend.isWebGPUBackend) {
    throw new Error('three.js found no WebGPU here and fell back to WebGL 2: syclts needs WebGPU');
  }

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x0b1020);
  const camera = new THREE.PerspectiveCamera(50, canvas.width / canvas.height, 0.1, 100);
  camera.position.set(0, 2.6, 4.4);
  camera.lookAt(0, 0, 0);
  camera.updateMatrixWorld();

  // The positions: a storage attribute three.js uploads once (its version never changes, so it
  // never uploads again) and draws as one sprite per instance.
  const initial = initialState(count, STRENGTH);
  const attribute = new THREE.StorageInstancedBufferAttribute(initial.positions.slice(), 4);
  const position = storage(attribute, 'vec4', count).toAttribute().xyz;
  const material = new THREE.SpriteNodeMaterial();
  material.positionNode = position;
  material.scaleNode = float(0.025);
  material.colorNode = mix(
    color(0xffc46b),
    color(0x5cc8ff),
    clamp(length(position).sub(0.6), 0, 1),
  );
  const particles = new THREE.Sprite(material);
  particles.count = count;
  // three.js's bounds come from the attribute's CPU copy, which the kernel does not update.
  particles.frustumCulled = false;
  scene.add(particles);

  // The first frame draws the initial positions and makes the attribute's GPUBuffer.
  renderer.render(scene, camera);
  const gpuBuffer = backend.get(attribute).buffer;
  if (!gpuBuffer) throw new Error('three.js made no GPUBuffer for the positions');

  // syclts on three.js's device, the positions wrapped without a copy.
  const queue = await Queue.create({ device: backend.device });
  const positions = queue.buffer(gpuBuffer, vec4f);
  const velocities = queue.buffer(vec4f, tuples(initial.velocities));
  // The pipeline is made before the first frame: a launch whose pipeline is ready is recorded
  // at once, so it reaches the device queue at the end of the task that issued it.
  const input = getKernelBundle(queue, { state: 'input', kernels: [step] });
  input.setSpecializationConstant(strength, STRENGTH);
  const bundle = await build(input);

  element('adapter').textContent = queue.adapterDescription;
  element('particles').textContent = `${count}, ${positions.byteLength} bytes shared`;

  const readBack = await new Promise<number[][]>((resolve, reject) => {
    let frames = 0;
    renderer.setAnimationLoop(() => {
      try {
        // The launch of the last frame was submitted at the end of that frame's task, so this
        // render (submitted during the call) comes after it on the device queue.
        renderer.render(scene, camera);
        element('frames').textContent = String(frames);
        if (frames === checkAfter) {
          // Queued after every launch so far, before the next.
          positions.read().then(resolve, reject);
          if (stopAfter !== null) {
            renderer.setAnimationLoop(null);
            return;
          }
        }
        queue.submit((cgh) => {
          cgh.useKernelBundle(bundle);
          cgh.parallelFor(count, step, { positions, velocities, dt: DT });
        });
        frames++;
      } catch (error) {
        renderer.setAnimationLoop(null);
        reject(error);
      }
    });
  });

  const read = readBack.flat();
  const reference = simulate(initial, STRENGTH, DT, checkAfter);
  const maxError = maxDifference(read, reference);
  const ok = maxError <= TOLERANCE;
  const check = element('check');
  check.textContent = ok
    ? `after ${checkAfter} frames the shared buffer matches the CPU (largest difference ${maxError.toExponential(2)})`
    : `FAILED: the shared buffer and the CPU differ by ${maxError} after ${checkAfter} frames`;
  check.className = ok ? 'ok' : 'bad';
  return {
    adapter: queue.adapterDescription,
    count,
    frames: checkAfter,
    dt: DT,
    strength: STRENGTH,
    softening: SOFTENING,
    initial: { positions: [...initial.positions], velocities: [...initial.velocities] },
    positions: read,
    camera: {
      view: camera.matrixWorldInverse.toArray(),
      projection: camera.projectionMatrix.toArray(),
    },
    canvas: { width: canvas.clientWidth, height: canvas.clientHeight },
    maxError,
    tolerance: TOLERANCE,
    ok,
  };
}

/** xyzw per element, as the host values of a vec4f buffer. */
function tuples(values: Float32Array): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  for (let i = 0; i < values.length; i += 4) {
    out.push([values[i]!, values[i + 1]!, values[i + 2]!, values[i + 3]!]);
  }
  return out;
}

window.sycltsExample = main().catch((error: unknown) => {
  element('check').textContent = String(error);
  element('check').className = 'bad';
  return { error: String(error) };
});
