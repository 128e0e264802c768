/** Adapter selection in browsers: `navigator.gpu`. */
import { errc, SyclError } from '../errors.js';
import { type AdapterRequest, type ChosenAdapter, describeAdapter } from './adapter-request.js';
import { requireFeatures } from './device-features.js';

const NO_WEBGPU_HELP = [
  'WebGPU needs a secure context (https, or http://localhost) and a browser that ships it:',
  'Chrome or Edge 113+ (on Linux it may need chrome://flags/#enable-unsafe-webgpu),',
  'Safari 26+, or Firefox 141+ on Windows',
].join(' ');

export async function requestAdapter(request: AdapterRequest = {}): Promise<ChosenAdapter> {
  if (typeof navigator === 'undefined' || !('gpu' in navigator)) {
    const where =
      typeof window === 'undefined'
        ? 'this environment has no navigator.gpu (a Node build must target Node, which has Dawn)'
        : window.isSecureContext
          ? 'this browser has no WebGPU (navigator.gpu is missing)'
          : `this page is not a secure context (${location.origin}), so navigator.gpu is missing`;
    throw new SyclError(errc.platform, `Queue.create: ${where}; ${NO_WEBGPU_HELP}`);
  }
  const adapter = await navigator.gpu.requestAdapter({
    powerPreference: request.powerPreference ?? 'high-performance',
  });
  if (!adapter) {
    throw new SyclError(
      errc.platform,
      'Queue.create: navigator.gpu.requestAdapter() returned no adapter: WebGPU is disabled or ' +
        'the GPU is blocklisted in this browser (chrome://gpu or about:support says which); ' +
        'updating the graphics driver or enabling hardware acceleration may help',
    );
  }
  const description = describeAdapter(adapter);
  // dawnToggles are left aside: the browser sets Dawn's toggles itself (see AdapterRequest).
  requireFeatures(adapter.features, request.requiredFeatures, `the adapter ${description}`);
  return { adapter, description };
}
