/** The particles at the start: positions and speeds that are multiples of powers of two. */
export function initialState(n: number) {
  return {
    x: Float32Array.from({ length: n }, (_, i) => (i % 32) / 4),
    y: Float32Array.from({ length: n }, (_, i) => 1 + ((i * 37) % 64) / 8),
    vx: Float32Array.from({ length: n }, (_, i) => ((i % 9) - 4) / 8),
    vy: Float32Array.from({ length: n }, (_, i) => ((i * 11) % 17) / 4 - 2),
  };
}
