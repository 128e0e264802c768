/** Each WGSL line printed from device code knows its place in the `.sycl.ts` source. */
import { expect, test } from 'vitest';
import { build } from '../../src/index.js';

const SOURCE = `import { accessor, deviceFunction, f32, kernel, wgsl } from '@syclts/dsl';

const twice = deviceFunction({ args: [f32], returns: f32 }, (x) =>
  wgsl\`let y = \${x};
    return y * 2.0;\`,
);

export const k = kernel({ range: 1, args: { out: accessor(f32, 'write') } }, (item, _kh, { out }) => {
  const i = item.getId(0);
  out[i] = twice(f32(i));
});
`;

test('statements, signatures and raw WGSL lines map to their source places; quotes hold the lines', () => {
  const { program } = build([{ module: 'src/m.sycl.ts', source: SOURCE }]);
  const image = program!.images[0]!;
  const wgsl = image.wgsl.native!.split('\n');
  const map = image.lineMaps!.native!;
  expect(map.version).toBe(1);
  expect(map.sources).toEqual(['src/m.sycl.ts']);
  const placeOf = (text: string) => {
    const n = wgsl.findIndex((l) => l.includes(text));
    expect(n).toBeGreaterThanOrEqual(0);
    return map.lines[n];
  };
  // A statement: the whole line comes from its start.
  expect(placeOf('out[')).toEqual([[1, 0, 10, 3, 0]]);
  expect(map.quotes['0:10']).toBe('  out[i] = twice(f32(i));');
  // Raw WGSL text: column for column, the splice at its interpolation.
  expect(placeOf('return y * 2.0;')).toEqual([[3, 0, 5, 5, 1]]);
  const let_ = placeOf('let y = ')!;
  expect(let_[0]).toEqual([3, 0, 4, 8, 1]);
  expect(let_[1]?.slice(1)).toEqual([0, 4, 18, 0]);
  // A kernel's entry point comes from its declaration; what the build makes up has no place.
  expect(placeOf('@compute')).toEqual([[1, 0, 8, 14, 0]]);
  expect(wgsl.filter((l) => l.startsWith('@group')).map((l) => map.lines[wgsl.indexOf(l)])).toEqual(
    [null, null],
  );
});

test('lineMaps: false leaves them out', () => {
  const { program } = build([{ module: 'src/m.sycl.ts', source: SOURCE }], { lineMaps: false });
  expect(program!.images[0]!.lineMaps).toBeUndefined();
});
