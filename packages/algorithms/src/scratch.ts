/** Device memory the algorithms keep per queue between calls, grown when a call needs more. */
import type { DataType } from '@syclts/dsl';
import type { DeviceBuffer, Plain, Queue } from '@syclts/runtime';

/** A buffer of at least `length` elements of `element`, kept for `queue` under `key`. */
export function scratch<T extends DataType>(
  queue: Queue,
  key: string,
  element: T,
  length: number,
): DeviceBuffer<Plain<T>, 'read_write'> {
  let kept = buffers.get(queue);
  if (!kept) {
    kept = new Map();
    buffers.set(queue, kept);
  }
  const known = kept.get(key);
  // One key always holds one element type.
  if (known && known.length >= length) return known as DeviceBuffer<Plain<T>, 'read_write'>;
  // Commands already submitted with the old buffer run before it is freed.
  known?.destroy();
  const grown = queue.buffer(element, Math.max(length, 2 * (known?.length ?? 0)));
  kept.set(key, grown);
  return grown;
}

const buffers = new WeakMap<Queue, Map<string, DeviceBuffer>>();
