import { requestAdapter } from '#platform';
import { errc, SyclError } from '../errors.js';
import type { AdapterRequest } from './adapter-request.js';

/**
 * Whether `Queue.create(request)` would find a WebGPU adapter here: a browser with WebGPU in a
 * secure context, or Node with Dawn (`webgpu`) and a GPU or the software adapter, that offers
 * the `requiredFeatures`. Lets an app choose a fallback before creating a queue; `Queue.create`
 * says why when it cannot.
 */
export async function isSupported(request?: AdapterRequest): Promise<boolean> {
  try {
    await requestAdapter(request);
    return true;
  } catch (e) {
    if (
      e instanceof SyclError &&
      (e.errc === errc.platform || e.errc === errc.featureNotSupported)
    ) {
      return false;
    }
    throw e;
  }
}
