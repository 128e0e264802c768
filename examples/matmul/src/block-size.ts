/** CP015's choice of block size, from the device's limits, as a power of two. */

const previousPowerOfTwo = (x: number) => 2 ** Math.floor(Math.log2(x));

/**
 * The largest power-of-two block edge that the device runs as one workgroup (bs * bs
 * invocations, bs per dimension), whose two f32 tiles fit in workgroup memory, and that divides n.
 */
export function chooseBlockSize(limits: GPUSupportedLimits, n: number): number {
  let bs = Math.min(
    previousPowerOfTwo(Math.sqrt(limits.maxComputeInvocationsPerWorkgroup)),
    previousPowerOfTwo(limits.maxComputeWorkgroupSizeX),
    previousPowerOfTwo(limits.maxComputeWorkgroupSizeY),
    previousPowerOfTwo(Math.sqrt(limits.maxComputeWorkgroupStorageSize / (2 * 4))),
  );
  while (bs > 1 && n % bs !== 0) bs /= 2;
  return bs;
}
