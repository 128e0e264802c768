/**
 * The packages as a stranger gets them: packed with `npm pack`, installed from the tarballs and
 * the registry (no workspace link) into an app outside the repository, configured from the
 * bundler documentation as it is written.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './paths.js';

const exec = promisify(execFile);

export const packages = {
  '@syclts/dsl': 'packages/dsl',
  '@syclts/compiler': 'packages/compiler',
  '@syclts/runtime': 'packages/runtime',
  'unplugin-syclts': 'packages/unplugin',
  // Device code shipped as `.sycl.ts` sources, compiled and linked in the app's bundle.
  '@syclts/algorithms': 'packages/algorithms',
} as const;
export type PackageName = keyof typeof packages;

/** `npm pack` of each package into `dir`: package name → tarball path. */
export async function packAll(dir: string): Promise<Record<PackageName, string>> {
  const tarballs = {} as Record<PackageName, string>;
  for (const [name, folder] of Object.entries(packages) as [PackageName, string][]) {
    const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: join(repoRoot, folder),
    });
    const [packed] = JSON.parse(stdout) as [{ filename: string }];
    tarballs[name] = join(dir, packed.filename);
  }
  return tarballs;
}

/** A configuration block of packages/unplugin/README.md: `// <file> (<target>): <command>`. */
export interface DocumentedConfig {
  readonly bundler: string;
  readonly target: 'browser' | 'Node';
  readonly file: string;
  readonly command: string;
  readonly code: string;
}

export async function documentedConfigs(): Promise<DocumentedConfig[]> {
  const readme = await readFile(join(repoRoot, 'packages/unplugin/README.md'), 'utf8');
  const configs: DocumentedConfig[] = [];
  for (const section of readme.split('\n### ').slice(1)) {
    const bundler = section.slice(0, section.indexOf('\n')).trim();
    for (const [, code] of section.matchAll(/```js\n([\s\S]*?)```/g)) {
      const header = /^\/\/ (?<file>\S+) \((?<target>browser|Node)\): (?<command>.+)\n/.exec(
        code ?? '',
      )?.groups;
      if (!header?.file || !header.command || !code) continue;
      const { file, command } = header;
      const target = header.target === 'Node' ? 'Node' : 'browser';
      configs.push({ bundler, target, file, command, code });
    }
  }
  return configs;
}

/** The versions the workspace itself builds with, so that the app tests the same tools. */
async function workspaceVersions(): Promise<Record<string, string>> {
  const read = async (path: string) =>
    (
      JSON.parse(await readFile(join(repoRoot, path), 'utf8')) as {
        devDependencies?: Record<string, string>;
      }
    ).devDependencies ?? {};
  return { ...(await read('package.json')), ...(await read('test/package.json')) };
}

/** Everything the app builds and runs with, beside the starter's own dependencies. */
const TOOLS = [
  '@rollup/plugin-node-resolve',
  '@rspack/cli',
  '@rspack/core',
  '@sparticuz/chromium',
  '@types/node',
  '@webgpu/types',
  'esbuild',
  'esbuild-loader',
  'rolldown',
  'rollup',
  'rollup-plugin-esbuild',
  'webgpu',
  'webpack',
  'webpack-cli',
] as const;

/** TypeScript 7 beside the starter's 5.9, under another name: called by path, not through .bin. */
export const TYPESCRIPT_7 = { name: 'typescript7', spec: 'npm:typescript@^7.0.2' } as const;

/**
 * Copies examples/starter into `dir`, points its @syclts dependencies at the tarballs, adds the
 * bundlers and Dawn as dev dependencies (the app itself is a browser app), and installs.
 */
export async function installStarter(
  dir: string,
  tarballs: Record<PackageName, string>,
): Promise<void> {
  const starter = join(repoRoot, 'examples/starter');
  await mkdir(dir, { recursive: true });
  for (const entry of ['index.html', 'src', 'tsconfig.json', 'vite.config.js']) {
    await cp(join(starter, entry), join(dir, entry), { recursive: true });
  }
  const manifest = JSON.parse(await readFile(join(starter, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const fromTarball = (deps: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(deps).map(([name, range]) => [
        name,
        name in tarballs ? `file:${tarballs[name as PackageName]}` : range,
      ]),
    );
  const versions = await workspaceVersions();
  const tools = Object.fromEntries(
    TOOLS.map((name) => {
      const range = versions[name];
      if (!range) throw new Error(`no workspace version of ${name}`);
      return [name, range];
    }),
  );
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify(
      {
        ...manifest,
        dependencies: fromTarball(manifest.dependencies),
        devDependencies: {
          ...fromTarball(manifest.devDependencies),
          // Packages the app reaches only through others (the compiler, through the plugin):
          // installed from their tarballs too, as the registry has none of this version.
          ...Object.fromEntries(
            Object.entries(tarballs)
              .filter(
                ([name]) => !(name in manifest.dependencies || name in manifest.devDependencies),
              )
              .map(([name, tarball]) => [name, `file:${tarball}`]),
          ),
          ...tools,
          [TYPESCRIPT_7.name]: TYPESCRIPT_7.spec,
        },
      },
      null,
      2,
    )}\n`,
  );
  await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** Runs a shell command in `cwd`; output and exit code, never a throw. */
export async function shell(
  command: string,
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec('sh', ['-c', command], {
      cwd,
      env: { ...process.env, ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof code === 'number' ? code : 1,
      stdout: stdout ?? '',
      stderr: stderr ?? '',
    };
  }
}
