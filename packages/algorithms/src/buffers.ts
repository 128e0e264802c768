/** What the algorithms' host calls share: argument checks and the views of buffers they bind. */
import { type AccessMode, type DataType, type ScalarType, u32, vec4u } from '@syclts/dsl';
import { type DeviceBuffer, errc, reinterpret, SyclError } from '@syclts/runtime';
import type { Element } from './operation.ts';

/** A buffer the algorithms read. */
export type Input<T extends Element> = DeviceBuffer<T, 'read' | 'read_write'>;
/** A buffer the algorithms write. */
export type Output<T extends Element> = DeviceBuffer<T, 'write' | 'read_write'>;

const ELEMENTS: ReadonlySet<string> = new Set(['u32', 'i32', 'f32']);

/** The buffer's element type, checked: the algorithms take u32, i32 and f32. */
export function elementOf(api: string, name: string, buffer: DeviceBuffer): Element {
  const element = buffer.element;
  if (element.kind !== 'scalar' || !ELEMENTS.has(element.scalar)) {
    throw new SyclError(
      errc.invalid,
      `${api}: ${name} must hold u32, i32 or f32 elements, got a buffer of ${describe(element)}`,
    );
  }
  return element as Element;
}

function describe(element: DeviceBuffer['element']): string {
  return element.kind === 'scalar' ? element.scalar : element.kind;
}

/**
 * Each buffer's views, made once (a new view would need new bind groups): by element type
 * (`viewOf`), and the `vec4<u32>` views by access mode (`vectorsOf`).
 */
const views = new WeakMap<DeviceBuffer, Map<DataType | AccessMode, DeviceBuffer>>();

function kept(
  buffer: DeviceBuffer,
  key: DataType | AccessMode,
  make: () => DeviceBuffer,
): DeviceBuffer {
  let made = views.get(buffer);
  if (!made) {
    made = new Map();
    views.set(buffer, made);
  }
  let view = made.get(key);
  if (!view) {
    view = make();
    made.set(key, view);
  }
  return view;
}

/** The buffer's memory as elements of `element` (a constant descriptor), one view per type. */
export function viewOf<U extends DataType, M extends AccessMode>(
  buffer: DeviceBuffer<DataType, M>,
  element: U,
): DeviceBuffer<U, M> {
  return kept(buffer, element, () => reinterpret(buffer, element)) as DeviceBuffer<U, M>;
}

/**
 * The buffer's whole allocation as `vec4<u32>`: every element and the padding after the last
 * (the runtime rounds its allocations up to 16 bytes; a wrapped GPUBuffer must be as long).
 * `'read'` binds it read-only; `'write'` read and write, for a kernel that writes whole vectors
 * and keeps the values of the elements it must not change.
 */
export function vectorsOf<U extends 'read' | 'write'>(
  api: string,
  name: string,
  buffer: DeviceBuffer<Element>,
  use: U,
): DeviceBuffer<typeof vec4u, U extends 'read' ? 'read' : 'read_write'> {
  const allowed: readonly AccessMode[] =
    use === 'read' ? ['read', 'read_write'] : ['write', 'read_write'];
  if (!allowed.includes(buffer.access)) {
    throw new SyclError(
      errc.accessor,
      `${api}: the ${name} is a '${buffer.access}' buffer, and ${api} ${use === 'read' ? 'reads' : 'writes'} it`,
    );
  }
  const vectors = Math.ceil(buffer.length / 4);
  if (buffer.allocatedBytes < 16 * vectors) {
    throw new SyclError(
      errc.invalid,
      `${api}: the ${name}'s GPUBuffer holds ${buffer.allocatedBytes} bytes, and ${api} reads and writes whole 16 bytes (${16 * vectors} for its ${buffer.length} elements): wrap a GPUBuffer whose size is a multiple of 16`,
    );
  }
  const access: AccessMode = use === 'read' ? 'read' : 'read_write';
  return kept(buffer, access, () => buffer.view(vec4u, vectors, access)) as DeviceBuffer<
    typeof vec4u,
    U extends 'read' ? 'read' : 'read_write'
  >;
}

/** The buffer's elements as u32 bits (itself where they are u32). */
export function bits<M extends AccessMode>(
  buffer: DeviceBuffer<Element, M>,
): DeviceBuffer<ScalarType<'u32'>, M> {
  if (buffer.element.scalar === 'u32')
    return buffer as unknown as DeviceBuffer<ScalarType<'u32'>, M>;
  return viewOf(buffer, u32);
}

/** `value` as the bits of an element of `element`, checked. */
export function bitsOf(api: string, name: string, element: Element, value: number): number {
  const fits =
    typeof value === 'number' &&
    (element.scalar === 'f32'
      ? !Number.isNaN(value)
      : Number.isInteger(value) &&
        (element.scalar === 'u32'
          ? value >= 0 && value <= 0xffffffff
          : value >= -0x80000000 && value <= 0x7fffffff));
  if (!fits) {
    throw new SyclError(
      errc.invalid,
      `${api}: ${name} must be ${element.scalar === 'f32' ? 'a number' : `an ${element.scalar} integer`}, got ${String(value)}`,
    );
  }
  if (element.scalar === 'f32') return new Uint32Array(Float32Array.of(value).buffer)[0]!;
  return value >>> 0;
}

/**
 * The element type of an input and the output computed from it, checked: one of the three, the
 * same in both, in different memory, the output holding at least `n` elements.
 */
export function inputAndOutput(
  api: string,
  input: DeviceBuffer,
  output: DeviceBuffer,
  n: number,
): Element {
  const element = elementOf(api, 'input', input);
  const written = elementOf(api, 'output', output);
  if (written !== element) {
    throw new SyclError(
      errc.invalid,
      `${api}: the output holds ${written.scalar} elements and the input ${element.scalar}; they must be the same`,
    );
  }
  distinct(api, input, output);
  holds(api, output, n);
  return element;
}

/** Refuses two buffers over the same memory. */
export function distinct(api: string, input: DeviceBuffer, output: DeviceBuffer): void {
  if (input.gpuBuffer === output.gpuBuffer) {
    throw new SyclError(
      errc.invalid,
      `${api}: the input and the output are the same memory; pass another buffer for the output`,
    );
  }
}

/** Refuses an output shorter than `n`. */
function holds(api: string, output: DeviceBuffer, n: number): void {
  if (output.length < n) {
    throw new SyclError(
      errc.invalid,
      `${api}: the output holds ${output.length} elements, fewer than the ${n} it must`,
    );
  }
}
