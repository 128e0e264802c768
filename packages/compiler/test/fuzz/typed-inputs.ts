/**
 * Random well-typed kernels from the property test's generator: expression and statement
 * trees over the scalars and vectors, several cases per kernel, one or more kernels per
 * module, sometimes in an nd-range with a workgroup size.
 */
import {
  dslImport,
  generateCase,
  INPUTS,
  type Rand,
  type Type,
} from '../frontend/property/generator.js';
import { MODES } from './corpus-inputs.js';
import type { FuzzInput, Size } from './input.js';

const IMPORTS = dslImport('accessor', 'kernel');

function store(type: Type, component: string): string {
  const v = type.n === 1 ? 'r' : `r.${component}`;
  if (type.s === 'i32') return `u32(${v})`;
  if (type.s === 'f32') return `bitcastU32(${v})`;
  if (type.s === 'bool') return `${v} ? 1 : 0`;
  return v;
}

function kernelSource(r: Rand, name: string, size: Size): string {
  const nd = r.chance(0.3);
  const shape = nd
    ? `ndRange: 1, workgroupSize: [${r.pick([1, 2, 8, 64, 256])}]`
    : `range: ${1 + r.int(3)}`;
  const lines = [
    `export const ${name} = kernel(`,
    `  { ${shape}, args: { ai: accessor(i32, 'read'), bu: accessor(u32, 'read'), cf: accessor(f32, 'read'), fl: accessor(u32, 'read'), out: accessor(u32, 'write') } },`,
    '  (_item, _kh, { ai, bu, cf, fl, out }) => {',
    ...[0, 1, 2, 3].map(
      (i) =>
        `    const a${i} = ai[${i}]!;\n    const b${i} = bu[${i}]!;\n    const c${i} = cf[${i}]!;`,
    ),
    '    const p0 = fl[0]! !== 0;',
    '    const p1 = fl[1]! !== 0;',
  ];
  const cases = 1 + r.int(size === 'full' ? 3 : 2);
  for (let k = 0; k < cases; k++) {
    const c = generateCase(r, INPUTS, 1 + r.int(size === 'full' ? 3 : 2));
    lines.push('    {', ...c.text.split('\n').map((l) => `      ${l}`));
    for (let j = 0; j < c.type.n; j++)
      lines.push(`      out[${k * 4 + j}] = ${store(c.type, 'xyzw'[j]!)};`);
    lines.push('    }');
  }
  lines.push('  },', ');');
  return lines.join('\n');
}

export function typedKernels(r: Rand, size: Size): FuzzInput {
  const kernels = Array.from({ length: size === 'full' ? 1 + r.int(2) : 1 }, (_, i) =>
    kernelSource(r, `k${i}`, size),
  );
  return {
    family: 'typed-kernels',
    sources: [{ module: 'fuzz/typed.sycl.ts', source: `${IMPORTS}\n\n${kernels.join('\n\n')}\n` }],
    specConstants: r.pick(MODES),
  };
}
