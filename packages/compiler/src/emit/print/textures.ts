/** WGSL's spelling of texture arguments' types and of texture built-in calls. */
import type { TextureArgType } from '@syclts/dsl';

const DIMENSIONS = {
  '1d': '1d',
  '2d': '2d',
  '2d-array': '2d_array',
  '3d': '3d',
  cube: 'cube',
  'cube-array': 'cube_array',
} as const;

/** `texture_2d<f32>`, `texture_storage_2d<rgba8unorm, write>`, `sampler`, `texture_external`. */
export function textureWgslType(t: TextureArgType): string {
  switch (t.kind) {
    case 'texture':
      return `texture_${DIMENSIONS[t.dimension]}<${t.sampleType}>`;
    case 'storageTexture':
      return `texture_storage_${DIMENSIONS[t.dimension]}<${t.format}, ${t.access}>`;
    case 'sampler':
      return 'sampler';
    case 'externalTexture':
      return 'texture_external';
  }
}
