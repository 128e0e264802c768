import { findUpdates } from '../ir/children.js';
import type { DeviceObject } from '../ir/device-object.js';
import { holdsGroups } from '../ir/effects.js';

export interface FooterOptions {
  /** The module specifier the footer imports the linked program from. */
  readonly programModule: string;
  /** The module's source: the footer's own bindings take names it does not use. */
  readonly source: string;
}

/**
 * The integration footer appended to a transformed `.sycl.ts` module: binds every declaration's
 * host object to its symbolic ID and the linked program. Every declaration is listed, used on
 * device or not, because host code names them too (`setSpecializationConstant`, `copy`), and the
 * runtime finds host objects (defaults the build could not fold) from symbolic IDs.
 *
 * It starts on a new line and only appends, so the user's code keeps its positions.
 */
export function integrationFooter(object: DeviceObject, options: FooterOptions): string {
  const attach = freeName('__syclts_attach', options.source);
  const program = freeName('__syclts_program', options.source);
  const names = [
    ...object.specConstants.map((d) => d.name),
    ...object.deviceGlobals.map((d) => d.name),
    ...object.kernels.map((d) => d.name),
    ...object.functions.map((d) => d.name),
  ];
  const entries = names.map((name) => `[${name}, ${JSON.stringify(symbolicId(object, name))}]`);
  // The run-time code of group functions, reductions, textures and console.log is loaded by the modules that
  // use them.
  const groups = object.kernels.some(
    (k) => k.params.some((p) => p.kind === 'reduction') || holdsGroups(k.body),
  );
  const textures = object.kernels.some((k) => k.params.some((p) => p.kind === 'texture'));
  const log = [
    ...object.kernels.map((k) => k.body),
    ...object.functions.flatMap((f) => (f.body.kind === 'ir' ? [f.body.block] : [])),
  ].some((block) => findUpdates(block, (s) => s.kind === 'log').length > 0);
  return [
    '',
    ...(groups ? ["import '@syclts/runtime/groups';"] : []),
    ...(textures ? ["import '@syclts/runtime/textures';"] : []),
    ...(log ? ["import '@syclts/runtime/log';"] : []),
    `import { attach as ${attach} } from '@syclts/dsl';`,
    `import ${program} from ${JSON.stringify(options.programModule)};`,
    `${attach}(${program}, [${entries.join(', ')}]);`,
    '',
  ].join('\n');
}

/** `<root-relative module path>#<the declaration's own name>`. */
export function symbolicId(object: DeviceObject, name: string): string {
  return `${object.module}#${name}`;
}

/** `base`, or `base` with the smallest numeric suffix that the source does not contain. */
function freeName(base: string, source: string): string {
  let name = base;
  for (let i = 1; source.includes(name); i++) name = `${base}${i}`;
  return name;
}
