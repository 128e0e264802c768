/**
 * WebGPU's flag values, fixed by the specification. The runtime uses these rather than the
 * `GPUBufferUsage`, `GPUShaderStage` and `GPUMapMode` globals, which Node has only once something
 * installs them: a `GPUDevice` made by the app's own Dawn instance and passed to `Queue.create`
 * comes without them.
 */
export const BufferUsage = {
  MAP_READ: 0x0001,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
} as const;

export const ShaderStage = { COMPUTE: 0x4 } as const;

export const MapMode = { READ: 0x0001 } as const;

export const TextureUsage = {
  COPY_SRC: 0x01,
  COPY_DST: 0x02,
  TEXTURE_BINDING: 0x04,
  STORAGE_BINDING: 0x08,
  RENDER_ATTACHMENT: 0x10,
} as const;
