// Hand-written WGSL f16 x f16 -> f32 matrix multiply on subgroup matrices (C = A x B, N x N,
// row-major), generated from tile parameters: the baseline of the tensor-core benchmarks.
// Each workgroup computes a BM x BN tile of C; its subgroups a WM x WN block of it as
// (WM/16) x (WN/16) accumulators of 16 x 16. K advances BK at a time through workgroup memory:
// A and B tiles are read from storage as vec4<u32> (8 halves), kept in registers while the
// previous tile is multiplied (`stages` 2: two tile buffers, one barrier a step; 1: one buffer,
// two barriers a step, so larger tiles fit), and
// stored to workgroup memory with a padded row so that the subgroup-matrix loads spread over
// the banks. With `view`, workgroup memory is a `buffer` (WGSL's buffer_view) written 16 bytes
// at a time and read as f16 by the matrix loads; without it, the halves are stored one by one.
// `sized` gives the storage arrays their length in the type, so that bounds checks need no
// arrayLength. `unpack` turns each u32 into its two halves through f32 (examples/tensor-cores,
// written in device code, does that) rather than by a bitcast. `regions` (one stage) lays
// workgroup memory out as one array per subgroup row of A (WM rows) and column of B (WN columns,
// padded by PAD), and unrolls the k step, so that every matrix load reads its
// subgroup's region at a constant offset: Dawn's robustness then predicates each load on a
// condition the compiler decides.
export function matmulF16Wgsl({
  BM = 128,
  BN = 128,
  BK = 32,
  WM = 64,
  WN = 32,
  PAD = 8,
  N = 4096,
  view = false,
  stages = 2,
  sized = false,
  unpack = false,
  regions = false,
} = {}) {
  const S = 16;
  const warpsM = BM / WM,
    warpsN = BN / WN,
    subgroups = warpsM * warpsN,
    threads = subgroups * 32;
  const tm = WM / S,
    tn = WN / S;
  const aVec = (BM * BK) / 8,
    bVec = (BK * BN) / 8;
  if (BM % WM || BN % WN || WM % S || WN % S || BK % S) throw new Error('tiles must nest');
  if (aVec % threads || bVec % threads) throw new Error('tile loads must divide evenly');
  if (N % BM || N % BN || N % BK) throw new Error('N must be a multiple of the tiles');
  const aStride = BK + PAD,
    bStride = BN + PAD;
  const bRegion = BK * (WN + PAD);
  const aSize = BM * aStride,
    bSize = regions ? warpsN * bRegion : BK * bStride;
  if (regions && stages !== 1) throw new Error('regions take one stage');
  const aArray = regions
    ? `array<array<f16, ${WM * aStride}>, ${warpsM}>`
    : `array<f16, ${stages * aSize}>`;
  const bArray = regions
    ? `array<array<f16, ${bRegion}>, ${warpsN}>`
    : `array<f16, ${stages * bSize}>`;
  const aPut = regions ? `array<f16, ${WM * aStride}>` : aArray;
  const bPut = regions ? `array<f16, ${bRegion}>` : bArray;
  if (stages !== 1 && stages !== 2) throw new Error('stages is 1 or 2');
  const aLoads = aVec / threads,
    bLoads = bVec / threads;
  // The halves of a vec4<u32>: reinterpreted, or (`unpack`) widened to f32 and back, as device
  // code without an f16 bitcast writes it.
  const halves = unpack
    ? [
        '  let h0 = vec2<f16>(unpack2x16float(v.x)); let h1 = vec2<f16>(unpack2x16float(v.y));',
        '  let h2 = vec2<f16>(unpack2x16float(v.z)); let h3 = vec2<f16>(unpack2x16float(v.w));',
      ]
    : [
        '  let h0 = bitcast<vec2<f16>>(v.x); let h1 = bitcast<vec2<f16>>(v.y);',
        '  let h2 = bitcast<vec2<f16>>(v.z); let h3 = bitcast<vec2<f16>>(v.w);',
      ];
  const L = [];
  L.push(
    'enable f16;',
    'enable subgroups;',
    'enable chromium_experimental_subgroup_matrix;',
    ...(view ? ['requires buffer_view;'] : []),
    `const N: u32 = ${N}u;`,
    'alias MA = subgroup_matrix_left<f16, 16, 16>;',
    'alias MB = subgroup_matrix_right<f16, 16, 16>;',
    'alias MC = subgroup_matrix_result<f32, 16, 16>;',
    `@group(0) @binding(0) var<storage, read> A: array<vec4<u32>${sized ? `, ${(N * N) / 8}` : ''}>;`,
    `@group(0) @binding(1) var<storage, read> B: array<vec4<u32>${sized ? `, ${(N * N) / 8}` : ''}>;`,
    `@group(0) @binding(2) var<storage, read_write> C: array<f32${sized ? `, ${N * N}` : ''}>;`,
    ...(view
      ? [
          `var<workgroup> As: buffer<${2 * stages * aSize}>;`,
          `var<workgroup> Bs: buffer<${2 * stages * bSize}>;`,
        ]
      : [`var<workgroup> As: ${aArray};`, `var<workgroup> Bs: ${bArray};`]),
    `fn put8(p: ptr<workgroup, ${aPut}>, at: u32, v: vec4<u32>) {`,
    ...halves,
    '  (*p)[at] = h0.x; (*p)[at + 1u] = h0.y; (*p)[at + 2u] = h1.x; (*p)[at + 3u] = h1.y;',
    '  (*p)[at + 4u] = h2.x; (*p)[at + 5u] = h2.y; (*p)[at + 6u] = h3.x; (*p)[at + 7u] = h3.y;',
    '}',
    `fn putB(p: ptr<workgroup, ${bPut}>, at: u32, v: vec4<u32>) {`,
    ...halves,
    '  (*p)[at] = h0.x; (*p)[at + 1u] = h0.y; (*p)[at + 2u] = h1.x; (*p)[at + 3u] = h1.y;',
    '  (*p)[at + 4u] = h2.x; (*p)[at + 5u] = h2.y; (*p)[at + 6u] = h3.x; (*p)[at + 7u] = h3.y;',
    '}',
    `@compute @workgroup_size(${threads})`,
    'fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) tid: u32, @builtin(subgroup_id) sg: u32) {',
    `  let row0 = wg.y * ${BM}u;`,
    `  let col0 = wg.x * ${BN}u;`,
    `  let wr = sg / ${warpsN}u;`,
    `  let wc = sg % ${warpsN}u;`,
  );
  for (let i = 0; i < tm; i++) for (let j = 0; j < tn; j++) L.push(`  var c${i}_${j} = MC();`);
  const fetch = (k0) => {
    const out = [];
    for (let r = 0; r < aLoads; r++)
      out.push(
        `    { let e = tid + ${r * threads}u; ra${r} = A[((row0 + e / ${BK / 8}u) * N + ${k0}) / 8u + e % ${BK / 8}u]; }`,
      );
    for (let r = 0; r < bLoads; r++)
      out.push(
        `    { let e = tid + ${r * threads}u; rb${r} = B[((${k0} + e / ${BN / 8}u) * N + col0) / 8u + e % ${BN / 8}u]; }`,
      );
    return out;
  };
  const stash = (stage) => {
    const out = [];
    for (let r = 0; r < aLoads; r++)
      out.push(
        view
          ? `    { let e = tid + ${r * threads}u; bufferView<array<vec4<u32>, ${(stages * aSize) / 8}>>(&As, 0)[(${stage} * ${aSize}u + (e / ${BK / 8}u) * ${aStride}u + (e % ${BK / 8}u) * 8u) / 8u] = ra${r}; }`
          : regions
            ? `    { let e = tid + ${r * threads}u; let row = e / ${BK / 8}u; put8(&As[row / ${WM}u], (row % ${WM}u) * ${aStride}u + (e % ${BK / 8}u) * 8u, ra${r}); }`
            : `    { let e = tid + ${r * threads}u; put8(&As, ${stage} * ${aSize}u + (e / ${BK / 8}u) * ${aStride}u + (e % ${BK / 8}u) * 8u, ra${r}); }`,
      );
    for (let r = 0; r < bLoads; r++)
      out.push(
        view
          ? regions
            ? `    { let e = tid + ${r * threads}u; let col = (e % ${BN / 8}u) * 8u; bufferView<array<vec4<u32>, ${bSize / 8}>>(&Bs, 0)[((col / ${WN}u) * ${bRegion}u + (e / ${BN / 8}u) * ${WN + PAD}u + col % ${WN}u) / 8u] = rb${r}; }`
            : `    { let e = tid + ${r * threads}u; bufferView<array<vec4<u32>, ${(stages * bSize) / 8}>>(&Bs, 0)[(${stage} * ${bSize}u + (e / ${BN / 8}u) * ${bStride}u + (e % ${BN / 8}u) * 8u) / 8u] = rb${r}; }`
          : regions
            ? `    { let e = tid + ${r * threads}u; let col = (e % ${BN / 8}u) * 8u; putB(&Bs[col / ${WN}u], (e / ${BN / 8}u) * ${WN + PAD}u + col % ${WN}u, rb${r}); }`
            : `    { let e = tid + ${r * threads}u; putB(&Bs, ${stage} * ${bSize}u + (e / ${BN / 8}u) * ${bStride}u + (e % ${BN / 8}u) * 8u, rb${r}); }`,
      );
    return out;
  };
  for (let r = 0; r < aLoads; r++) L.push(`  var ra${r}: vec4<u32>;`);
  for (let r = 0; r < bLoads; r++) L.push(`  var rb${r}: vec4<u32>;`);
  L.push(...fetch('0u'), ...stash('0u'), '  workgroupBarrier();');
  L.push(`  for (var k0 = 0u; k0 < N; k0 += ${BK}u) {`);
  L.push(stages === 2 ? `    let stage = (k0 / ${BK}u) & 1u;` : '    let stage = 0u;');
  L.push(`    let more = k0 + ${BK}u < N;`);
  L.push('    if (more) {', ...fetch(`k0 + ${BK}u`), '    }');
  if (regions) {
    for (let kk = 0; kk < BK; kk += 16) {
      L.push('    {');
      for (let i = 0; i < tm; i++)
        L.push(
          `      let a${i} = subgroupMatrixLoad<MA, row_major>(${view ? `&(*bufferView<${aArray}>(&As, 0))[wr]` : '&As[wr]'}, ${i * S * aStride + kk}u, ${aStride}u);`,
        );
      for (let j = 0; j < tn; j++)
        L.push(
          `      let b${j} = subgroupMatrixLoad<MB, row_major>(${view ? `&(*bufferView<${bArray}>(&Bs, 0))[wc]` : '&Bs[wc]'}, ${kk * (WN + PAD) + j * S}u, ${WN + PAD}u);`,
        );
      for (let i = 0; i < tm; i++)
        for (let j = 0; j < tn; j++)
          L.push(`      c${i}_${j} = subgroupMatrixMultiplyAccumulate(a${i}, b${j}, c${i}_${j});`);
      L.push('    }');
    }
    L.push('    {');
  } else L.push(`    for (var kk = 0u; kk < ${BK}u; kk += 16u) {`);
  for (let i = 0; !regions && i < tm; i++)
    L.push(
      `      let a${i} = subgroupMatrixLoad<MA, row_major>(${view ? `bufferView<array<f16, ${stages * aSize}>>(&As, 0)` : '&As'}, stage * ${aSize}u + (wr * ${WM}u + ${i * S}u) * ${aStride}u + kk, ${aStride}u);`,
    );
  for (let j = 0; !regions && j < tn; j++)
    L.push(
      `      let b${j} = subgroupMatrixLoad<MB, row_major>(${view ? `bufferView<array<f16, ${stages * bSize}>>(&Bs, 0)` : '&Bs'}, stage * ${bSize}u + kk * ${bStride}u + wc * ${WN}u + ${j * S}u, ${bStride}u);`,
    );
  for (let i = 0; !regions && i < tm; i++)
    for (let j = 0; j < tn; j++)
      L.push(`      c${i}_${j} = subgroupMatrixMultiplyAccumulate(a${i}, b${j}, c${i}_${j});`);
  L.push('    }');
  if (stages === 2) {
    L.push('    if (more) {', ...stash('(stage ^ 1u)'), '    }');
    L.push('    workgroupBarrier();', '  }');
  } else {
    L.push('    workgroupBarrier();', '    if (more) {', ...stash('0u'), '    }');
    L.push('    workgroupBarrier();', '  }');
  }
  for (let i = 0; i < tm; i++)
    for (let j = 0; j < tn; j++)
      L.push(
        `  subgroupMatrixStore<row_major>(&C, (row0 + wr * ${WM}u + ${i * S}u) * N + col0 + wc * ${WN}u + ${j * S}u, c${i}_${j}, N);`,
      );
  L.push('}');
  return {
    code: L.join('\n'),
    workgroups: () => [N / BN, N / BM, 1],
    flops: 2 * N * N * N,
  };
}

/** The f16 bits of x, a value f16 holds exactly (the test matrices' values). */
function f16Bits(x) {
  if (x === 0) return 0;
  const s = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  if (e < -14) return s | Math.round(a / 2 ** -24);
  return s | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
}

/**
 * A random n x n test matrix, its values and their f16 bits: small integers in [-2, 2] (`int`:
 * products and sums exact), or k/64 with |k| <= 64 (`real`: exact in f16, so the products are
 * exact before the f32 sums).
 */
export function testMatrix(n, kind) {
  const values = new Float64Array(n * n);
  const bits = new Uint16Array(n * n);
  for (let i = 0; i < n * n; i++) {
    const v =
      kind === 'int'
        ? Math.floor(Math.random() * 5) - 2
        : (Math.floor(Math.random() * 129) - 64) / 64;
    values[i] = v;
    bits[i] = f16Bits(v);
  }
  return { values, bits };
}

/**
 * Sampled entries of `c` (n x n f32) against the float64 sum of A x B: wrong where not exact
 * (`int`) or off by more than 1e-5 of the products' magnitudes (`real`).
 */
export function sampledCheck(a, b, c, n, kind, samples) {
  let worst = 0;
  let bad = 0;
  for (let s = 0; s < samples; s++) {
    const i = Math.floor(Math.random() * n);
    const j = Math.floor(Math.random() * n);
    let sum = 0;
    let magnitude = 0;
    for (let t = 0; t < n; t++) {
      const p = a.values[i * n + t] * b.values[t * n + j];
      sum += p;
      magnitude += Math.abs(p);
    }
    const error = Math.abs(c[i * n + j] - sum);
    if (!(kind === 'int' ? error === 0 : error <= 1e-5 * magnitude + 1e-6)) bad++;
    worst = Math.max(worst, magnitude ? error / magnitude : error);
  }
  return { bad, worst, samples };
}
