/**
 * Textures' run-time code is in its own module, `@syclts/runtime/textures`, which the
 * integration footer of a module declaring texture arguments imports: an app without textures
 * does not carry it. Loading it registers it here.
 */
import type { BindingInfo, TextureArgType } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import type { Scheduler } from './scheduler.js';

/**
 * A texture argument as checked: a texture (which orders its commands as a buffer does, see
 * Written), a sampler or a video frame. Only the textures module looks inside.
 */
export interface TextureArg {
  readonly textureArg: 'texture' | 'sampler' | 'externalTexture';
}

/** What a texture argument binds: a texture's view, a sampler or a video frame. */
export type TextureResource = GPUTextureView | GPUSampler | GPUExternalTexture;

export interface TextureSupport {
  /** A texture argument's value, checked against its declaration. */
  check(
    api: string,
    kernelName: string,
    name: string,
    type: TextureArgType,
    value: unknown,
    device: GPUDevice,
  ): TextureArg;
  /** What the bind group holds for a checked argument. */
  resource(arg: TextureArg): TextureResource;
  /** The bind group layout entry of a texture binding, without its number and visibility. */
  layout(
    binding: BindingInfo & { kind: 'texture' },
  ): Omit<GPUBindGroupLayoutEntry, 'binding' | 'visibility'>;
  /** `queue.texture(...)`. */
  create(scheduler: Scheduler, args: readonly unknown[]): unknown;
}

let support: TextureSupport | null = null;

export function registerTextures(textures: TextureSupport): void {
  support = textures;
}

export function textureSupport(api: string): TextureSupport {
  if (!support) {
    throw new SyclError(
      errc.kernelNotSupported,
      `${api}: textures need their run-time code: import '@syclts/runtime/textures'`,
    );
  }
  return support;
}
