/** Adapter selection in browsers: `navigator.gpu`. */
import { errc, SyclError } from '../errors.js';
import { type AdapterRequest, type ChosenAdapter, describeAdapter } from './adapter-request.js';

export async function requestAdapter(request: AdapterRequest = {}): Promise<ChosenAdapter> {
  if (!('gpu' in navigator)) {
    throw new SyclError(
      errc.platform,
      'Queue.create: this browser has no WebGPU (navigator.gpu is missing); use a browser with WebGPU enabled',
    );
  }
  const adapter = await navigator.gpu.requestAdapter({
    powerPreference: request.powerPreference ?? 'high-performance',
  });
  if (!adapter) {
    throw new SyclError(
      errc.platform,
      'Queue.create: navigator.gpu.requestAdapter() returned no adapter',
    );
  }
  return { adapter, description: describeAdapter(adapter) };
}
