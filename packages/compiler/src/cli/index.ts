/** The `syclts` command line: argument parsing and dispatch. */
import { parseArgs } from 'node:util';
import type { SpecConstantsOption, SplitMode } from '../link/index.js';
import { runBuild } from './build-command.js';
import { runInspect } from './inspect.js';
import type { CliIo } from './io.js';

export type { CliIo } from './io.js';

export const USAGE = `usage:
  syclts build <files...> --out-dir DIR [--split per-module|per-kernel|whole]
                          [--spec-constants native|emulated|both] [--root DIR]
                          [--validate-ir]
  syclts inspect DIR`;

const SPLITS: readonly SplitMode[] = ['per-module', 'per-kernel', 'whole'];
const MODES: readonly SpecConstantsOption[] = ['native', 'emulated', 'both'];

/** Runs one command; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  const fail = (message: string): number => {
    io.stderr(`syclts: error: ${message}\n${USAGE}\n`);
    return 1;
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(rest);
  } catch (error) {
    return fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  switch (command) {
    case 'build': {
      if (positionals.length === 0) return fail('build needs at least one .sycl.ts file');
      if (!values['out-dir']) return fail('build needs --out-dir DIR');
      const split = values.split ?? 'per-module';
      const specConstants = values['spec-constants'] ?? 'native';
      if (!isOneOf(split, SPLITS))
        return fail(`--split must be one of ${SPLITS.join(', ')}, not '${split}'`);
      if (!isOneOf(specConstants, MODES)) {
        return fail(`--spec-constants must be one of ${MODES.join(', ')}, not '${specConstants}'`);
      }
      return runBuild(
        {
          files: positionals,
          outDir: values['out-dir'],
          root: values.root ?? '.',
          split,
          specConstants,
          validateIr: values['validate-ir'] ?? false,
        },
        io,
      );
    }
    case 'inspect':
      if (positionals.length !== 1) return fail('inspect needs exactly one directory');
      return runInspect(positionals[0]!, io);
    case undefined:
    case '--help':
    case 'help':
      io.stdout(`${USAGE}\n`);
      return command === undefined ? 1 : 0;
    default:
      return fail(`unknown command '${command}'`);
  }
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      'out-dir': { type: 'string' },
      split: { type: 'string' },
      'spec-constants': { type: 'string' },
      root: { type: 'string' },
      'validate-ir': { type: 'boolean' },
    },
  });
}

function isOneOf<T extends string>(value: string, options: readonly T[]): value is T {
  return (options as readonly string[]).includes(value);
}
