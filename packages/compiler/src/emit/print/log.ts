/**
 * `console.log` in WGSL: the log buffer, the item's id kept for device functions, and one helper
 * per list of value types that reserves a record with an atomic add on the cursor and writes it
 * where it fits (the layout is @syclts/dsl's image/log.ts).
 */
import type { LogValueType } from '@syclts/dsl';
import type { LinkedLog } from '../../link/linked-image.js';

export function logDeclarations(log: LinkedLog): string[] {
  return [
    `struct ${log.structName} {`,
    '  cursor: atomic<u32>,',
    '  lost: atomic<u32>,',
    '  words: array<u32>,',
    '}',
    `@group(${log.group}) @binding(${log.binding}) var<storage, read_write> ${log.wgslName}: ${log.structName};`,
    `var<private> ${log.itemName}: vec3<u32>;`,
  ];
}

const SUFFIX: Readonly<Record<LogValueType['scalar'], string>> = {
  i32: 'i',
  u32: 'u',
  f32: 'f',
  f16: 'h',
  bool: 'b',
};

/** The helper's name part for `args` (`f32_vec3u`). */
export function logHelperKey(args: readonly LogValueType[]): string {
  return args.map((a) => (a.size === 1 ? a.scalar : `vec${a.size}${SUFFIX[a.scalar]}`)).join('_');
}

function wgslType(a: LogValueType): string {
  return a.size === 1 ? a.scalar : `vec${a.size}<${a.scalar}>`;
}

/** A value's scalar as the u32 word the record holds. */
function word(scalar: LogValueType['scalar'], value: string): string {
  switch (scalar) {
    case 'u32':
      return value;
    case 'i32':
    case 'f32':
      return `bitcast<u32>(${value})`;
    case 'f16':
      return `bitcast<u32>(f32(${value}))`;
    case 'bool':
      return `select(0u, 1u, ${value})`;
  }
}

/** `fn name(id: u32, a0: T0, ...)`: writes one record of format `id`, or counts it lost. */
export function logHelper(name: string, log: LinkedLog, args: readonly LogValueType[]): string {
  const buffer = log.wgslName;
  const values = args.flatMap((a, i) =>
    a.size === 1
      ? [word(a.scalar, `a${i}`)]
      : ['x', 'y', 'z', 'w'].slice(0, a.size).map((c) => word(a.scalar, `a${i}.${c}`)),
  );
  const words = ['id', `${log.itemName}.x`, `${log.itemName}.y`, `${log.itemName}.z`, ...values];
  const params = ['id: u32', ...args.map((a, i) => `a${i}: ${wgslType(a)}`)];
  return [
    `fn ${name}(${params.join(', ')}) {`,
    `  let at = atomicAdd(&${buffer}.cursor, ${words.length}u);`,
    `  let end = arrayLength(&${buffer}.words);`,
    '  if (at < end) {',
    `    ${buffer}.words[at] = id;`,
    '  }',
    `  if (at >= end || end - at < ${words.length}u) {`,
    `    atomicAdd(&${buffer}.lost, 1u);`,
    '    return;',
    '  }',
    ...words.slice(1).map((w, i) => `  ${buffer}.words[at + ${i + 1}u] = ${w};`),
    '}',
  ].join('\n');
}
