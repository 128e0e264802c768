// Hand-written WGSL matrix multiply (C = A x B, N x N, f32, row-major), generated from tile
// parameters; the literal-constant baseline for the GPU benchmarks. Register-tiled: each
// invocation computes a TM x TN block, the workgroup a BM x BN tile, K in steps of BK through
// workgroup memory (A stored transposed so the inner loop reads vec4s).
export function matmulWgsl({
  BM = 128,
  BN = 128,
  BK = 8,
  TM = 8,
  TN = 8,
  n = 'literal',
  N = 4096,
} = {}) {
  const WX = BN / TN,
    WY = BM / TM,
    threads = WX * WY;
  const aVec4 = (BM * BK) / 4,
    bVec4 = (BK * BN) / 4;
  if (aVec4 % threads || bVec4 % threads) throw new Error('tile loads must divide evenly');
  const nDecl =
    n === 'literal' ? `const N: u32 = ${N}u;` : n === 'override' ? `@id(0) override N: u32;` : '';
  const nUse = n === 'uniform' ? 'params.n' : 'N';
  const lines = [];
  lines.push(nDecl);
  if (n === 'uniform')
    lines.push('struct Params { n: u32 }', '@group(0) @binding(3) var<uniform> params: Params;');
  lines.push(
    '@group(0) @binding(0) var<storage, read> A: array<vec4f>;',
    '@group(0) @binding(1) var<storage, read> B: array<vec4f>;',
    '@group(0) @binding(2) var<storage, read_write> C: array<vec4f>;',
    `var<workgroup> As: array<vec4f, ${(BK * BM) / 4}>;`, // As[k][m], m fastest
    `var<workgroup> Bs: array<vec4f, ${(BK * BN) / 4}>;`, // Bs[k][n], n fastest
    `@compute @workgroup_size(${WX}, ${WY})`,
    'fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) lid: vec3u, @builtin(local_invocation_index) tid: u32) {',
    `  let n = ${nUse};`,
    '  let n4 = n / 4u;',
    `  let row0 = wg.y * ${BM}u;`,
    `  let col0 = wg.x * ${BN}u;`,
  );
  for (let i = 0; i < TM; i++)
    for (let j = 0; j < TN / 4; j++) lines.push(`  var acc_${i}_${j} = vec4f(0.0);`);
  lines.push(`  for (var k0 = 0u; k0 < n; k0 += ${BK}u) {`);
  // A tile: BM rows x BK cols, loaded as vec4 along k, stored transposed.
  for (let r = 0; r < aVec4 / threads; r++) {
    lines.push(
      `    { let e = tid + ${r * threads}u; let m = e / ${BK / 4}u; let kq = e % ${BK / 4}u;`,
      `      let v = A[(row0 + m) * n4 + k0 / 4u + kq];`,
      ...[0, 1, 2, 3].map(
        (c) => `      As[((kq * 4u + ${c}u) * ${BM}u + m) / 4u][m % 4u] = v[${c}];`,
      ),
      '    }',
    );
  }
  for (let r = 0; r < bVec4 / threads; r++) {
    lines.push(
      `    { let e = tid + ${r * threads}u; let kk = e / ${BN / 4}u; let c4 = e % ${BN / 4}u;`,
      `      Bs[kk * ${BN / 4}u + c4] = B[(k0 + kk) * n4 + col0 / 4u + c4]; }`,
    );
  }
  lines.push('    workgroupBarrier();');
  lines.push(`    for (var k = 0u; k < ${BK}u; k++) {`);
  // Rows of this invocation: lid.y*4 + 4*WY*p + q ; columns: lid.x*4 + 4*WX*p + q (strided, conflict-free vec4 reads)
  for (let p = 0; p < TM / 4; p++)
    lines.push(`      let a${p} = As[(k * ${BM}u) / 4u + lid.y + ${p * WY}u];`);
  for (let p = 0; p < TN / 4; p++)
    lines.push(`      let b${p} = Bs[(k * ${BN}u) / 4u + lid.x + ${p * WX}u];`);
  for (let i = 0; i < TM; i++) {
    const a = `a${Math.floor(i / 4)}[${i % 4}]`;
    for (let j = 0; j < TN / 4; j++)
      lines.push(`      acc_${i}_${j} = fma(vec4f(${a}), b${j}, acc_${i}_${j});`);
  }
  lines.push('    }', '    workgroupBarrier();', '  }');
  for (let i = 0; i < TM; i++) {
    const row = `row0 + (lid.y + ${Math.floor(i / 4) * WY}u) * 4u + ${i % 4}u`;
    for (let j = 0; j < TN / 4; j++)
      lines.push(`  C[(${row}) * n4 + col0 / 4u + lid.x + ${j * WX}u] = acc_${i}_${j};`);
  }
  lines.push('}');
  return { code: lines.join('\n'), workgroups: (N) => [N / BN, N / BM, 1], threads };
}
