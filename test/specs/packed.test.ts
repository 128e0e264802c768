/**
 * The published shape: the five packages packed, installed into the starter app outside the
 * workspace, built with each bundler for Node and the browser exactly as
 * packages/unplugin/README.md configures it, run on the adapter and in Chromium, and type-checked
 * with TypeScript 5.9 and 7. `@syclts/algorithms` ships `.sycl.ts` sources: each bundle links
 * its device code from node_modules with the app's kernel. A file missing from a package's
 * `files`, a wrong `exports` condition, or a dependency that only resolves inside the workspace
 * fails here.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import {
  type DocumentedConfig,
  documentedConfigs,
  installStarter,
  type PackageName,
  packAll,
  shell,
  TYPESCRIPT_7,
} from '../helpers/packed-app.js';
import { repoRoot } from '../helpers/paths.js';
import { serveDirectory } from '../helpers/static-server.js';

const exec = promisify(execFile);
const BUNDLERS = ['Vite', 'Rollup', 'Rolldown', 'esbuild', 'webpack', 'rspack'] as const;

let work: string;
let app: string;
let tarballs: Record<PackageName, string>;
let configs: DocumentedConfig[];

beforeAll(async () => {
  // The OS temp directory: outside the workspace, so nothing resolves through its links.
  work = await mkdtemp(join(tmpdir(), 'syclts-packed-'));
  app = join(work, 'app');
  tarballs = await packAll(work);
  await installStarter(app, tarballs);
  configs = await documentedConfigs();
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

function documented(bundler: string, target: DocumentedConfig['target']): DocumentedConfig {
  const config = configs.find((c) => c.bundler === bundler && c.target === target);
  if (!config)
    throw new Error(`packages/unplugin/README.md has no ${target} config for ${bundler}`);
  return config;
}

/** The Node bundle a documented command runs: `… && node dist/main.js`. */
function bundleOf(config: DocumentedConfig): string {
  const bundle = /&& node (\S+)$/.exec(config.command)?.[1];
  if (!bundle) throw new Error(`no bundle run by ${config.command}`);
  return bundle;
}

/** A folder of the app holding the starter's sources, `main` as the entry, and one config file. */
async function project(name: string, config: DocumentedConfig, main: string): Promise<string> {
  const dir = join(app, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'src'), { recursive: true });
  await cp(join(app, 'src'), join(dir, 'src'), { recursive: true });
  await cp(join(app, 'index.html'), join(dir, 'index.html'));
  await writeFile(join(dir, 'src/main.ts'), main);
  await writeFile(join(dir, config.file), config.code);
  return dir;
}

/**
 * The Node entry: the starter's host code run with values from the test, and reduce and
 * exclusiveScan of `@syclts/algorithms` (device code from the installed package, linked into the
 * same program as the app's kernel), into outputs poisoned first; results as JSON.
 */
const NODE_MAIN = `import { readFileSync } from 'node:fs';
import { exclusiveScan, reduce } from '@syclts/algorithms';
import { isSupported, Queue } from '@syclts/runtime';
import { scaleOnGpu } from './scale.ts';

const { input, gains, words } = JSON.parse(
  readFileSync(process.env.SYCLTS_PACKED_INPUT ?? '', 'utf8'),
) as { input: number[]; gains: number[]; words: number[] };
const supported = await isSupported();
const queue = await Queue.create();
const runs = [];
for (const by of gains) {
  const { output, overLimit } = await scaleOnGpu(queue, Float32Array.from(input), by);
  runs.push({ output: Array.from(output), overLimit });
}
const POISON = 0xdeadbeef;
const xs = queue.buffer(Uint32Array.from(words), { access: 'read' });
const sum = queue.buffer(Uint32Array.of(POISON));
const prefix = queue.buffer(new Uint32Array(words.length).fill(POISON));
const floats = queue.buffer(Float32Array.from(input), { access: 'read' });
const largest = queue.buffer(Float32Array.of(-1));
reduce(queue, xs, sum);
exclusiveScan(queue, xs, prefix, { init: 7 });
reduce(queue, floats, largest, { op: 'maximum' });
const algorithms = {
  sum: (await sum.read())[0],
  prefix: Array.from(await prefix.read()),
  largest: (await largest.read())[0],
};
console.log(JSON.stringify({ supported, adapter: queue.adapterDescription, runs, algorithms }));
process.exit(0);
`;

/** A small seeded generator (mulberry32), so that the log's seed replays a failure. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

interface Values {
  readonly input: number[];
  readonly gains: number[];
  /** u32 words for the algorithms: more than one scan tile (4096), sums that wrap around. */
  readonly words: number[];
}

/** Fresh values each run, from a seed printed in the log. */
function drawInput(bundler: string): Values {
  const seed = Math.floor(Math.random() * 2 ** 32);
  console.log(`[syclts] packed ${bundler} (Node) seed: ${seed}`);
  const random = generator(seed);
  const input = Array.from({ length: 64 }, () => Math.fround(1 + random() * 59));
  const gains = [Math.fround(1.5 + random()), Math.fround(2.5 + random())];
  const words = Array.from({ length: 4096 + Math.floor(random() * 8192) }, () =>
    Math.floor(random() * 2 ** 32),
  );
  return { input, gains, words };
}

/** The starter's kernel on the CPU: f32 products, and the count over 100 summed over launches. */
function expected({ input, gains }: Values) {
  let over = 0;
  return gains.map((gain) => {
    const output = input.map((x) => Math.fround(x * gain));
    over += output.filter((y) => y > 100).length;
    return { output, overLimit: over };
  });
}

/** The algorithms on the CPU: u32 sums modulo 2^32, the scan after init 7, the f32 maximum. */
function expectedAlgorithms({ input, words }: Values) {
  const prefix: number[] = [];
  let running = 7;
  for (const word of words) {
    prefix.push(running);
    running = (running + word) >>> 0;
  }
  const sum = words.reduce((a, b) => (a + b) >>> 0, 0);
  return { sum, prefix, largest: Math.max(...input) };
}

// Each bundler builds in a folder of its own: their builds and runs, child processes that each
// keep one core busy, go side by side.
describe.concurrent.each(BUNDLERS)(
  '%s, configured as packages/unplugin/README.md says',
  (bundler) => {
    test('for Node: the bundle runs the starter and @syclts/algorithms on the adapter with the right results', async ({
      expect,
    }) => {
      const config = documented(bundler, 'Node');
      const dir = await project(`node-${bundler}`, config, NODE_MAIN);
      const values = drawInput(bundler);
      await writeFile(join(dir, 'input.json'), JSON.stringify(values));
      const { code, stdout, stderr } = await shell(config.command, dir, {
        SYCLTS_PACKED_INPUT: join(dir, 'input.json'),
      });
      expect(code, `${config.command}\n${stdout}\n${stderr}`).toBe(0);
      const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
        supported: boolean;
        runs: unknown;
        algorithms: unknown;
      };
      expect(result.supported).toBe(true);
      expect(result.runs).toEqual(expected(values));
      expect(result.algorithms).toEqual(expectedAlgorithms(values));
      // The library's device code went through the plugin from node_modules, not around it.
      const bundled = await readFile(join(dir, bundleOf(config)), 'utf8');
      expect(bundled).toContain('node_modules/@syclts/algorithms/src/scan.sycl.ts#');
    });

    test('for the browser: it builds, @syclts/algorithms linked in', async ({ expect }) => {
      const config = documented(bundler, 'browser');
      const dir = await project(
        `web-${bundler}`,
        config,
        `${await starterMain()}${WEB_ALGORITHMS}`,
      );
      const { code, stdout, stderr } = await shell(config.command, dir);
      expect(code, `${config.command}\n${stdout}\n${stderr}`).toBe(0);
      const outputs = await readdir(join(dir, 'dist'), { recursive: true });
      const scripts = await Promise.all(
        outputs
          .filter((file) => file.endsWith('.js'))
          .map((file) => readFile(join(dir, 'dist', file), 'utf8')),
      );
      expect(scripts.join('\n')).toContain('node_modules/@syclts/algorithms/src/reduce.sycl.ts#');
    });
  },
);

/** Appended to the starter's entry for the browser: a library's kernels in the page's bundle. */
const WEB_ALGORITHMS = `
import { reduce } from '@syclts/algorithms';
(globalThis as { syclReduce?: typeof reduce }).syclReduce = reduce;
`;

function starterMain(): Promise<string> {
  return readFile(join(repoRoot, 'examples/starter/src/main.ts'), 'utf8');
}

test("the starter, built with Vite, runs in Chromium and shows the kernel's results", async () => {
  const built = await shell('npx vite build', app);
  expect(built.code, built.stderr).toBe(0);
  const server = await serveDirectory(join(app, 'dist'));
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.url);
    const out = page.locator('#out');
    await expect.poll(() => out.textContent(), { timeout: 60_000 }).not.toBe('running…');
    const lines = ((await out.textContent()) ?? '').split('\n');
    expect(errors).toEqual([]);
    expect(lines.slice(1)).toEqual([
      'input:   10 20 30 40 50 60 70 80',
      'x 2:     20 40 60 80 100 120 140 160  (3 over 100 so far)',
      'x 0.5:   5 10 15 20 25 30 35 40  (3 over 100 so far)',
    ]);
  } finally {
    await browser.close();
    await server.close();
  }
});

// webpack's development mode defaults to `eval`; rspack's does not, so it is asked for.
test.each([
  ['webpack', 'npx webpack --mode development'],
  ['rspack', 'npx rspack build --mode development --devtool eval-source-map'],
])('%s with an eval devtool is a build error that says what to set', async (bundler, command) => {
  const config = documented(bundler, 'Node');
  const dir = await project(`eval-${bundler}`, config, NODE_MAIN);
  const { code, stdout, stderr } = await shell(command, dir);
  expect(code).not.toBe(0);
  expect(`${stdout}${stderr}`).toMatch(
    /unplugin-syclts: devtool '[\w-]*eval[\w-]*' is not supported .* set devtool to 'source-map'/,
  );
});

describe.concurrent('types, with strict tsc and no skipLibCheck', () => {
  const TS_5 = 'node node_modules/typescript/bin/tsc';
  const TS_7 = `node node_modules/${TYPESCRIPT_7.name}/bin/tsc`;
  /** Mistakes the types must catch: each line fails to compile, or tsc reports the unused expectation. */
  const MISUSE = `import { Queue } from '@syclts/runtime';
import { overLimit, scale } from './kernels.sycl.ts';

export async function misuse(queue: Queue) {
  const data = queue.buffer(new Float32Array(4));
  // @ts-expect-error overLimit is read-only on the host (hostAccess: 'read')
  queue.copy(new Uint32Array(1), overLimit);
  // @ts-expect-error the kernel has no argument 'inptu'
  queue.parallelFor([4], scale, { inptu: data, output: data });
}
`;

  beforeAll(async () => {
    await writeFile(join(app, 'src/misuse.ts'), MISUSE);
    await mkdir(join(app, 'node'), { recursive: true });
    await writeFile(join(app, 'node/main.ts'), NODE_MAIN.replace('./scale.ts', '../src/scale.ts'));
    await writeFile(
      join(app, 'tsconfig.node.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022'],
          types: ['node'],
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: false,
        },
        include: ['node', 'src/kernels.sycl.ts', 'src/scale.ts', 'src/misuse.ts'],
      }),
    );
  });

  test.for([
    ['TypeScript 5.9, lib.dom without WebGPU', `${TS_5} -p tsconfig.json --skipLibCheck false`],
    [
      'TypeScript 5.9 with @webgpu/types',
      `${TS_5} -p tsconfig.json --skipLibCheck false --types @webgpu/types`,
    ],
    ['TypeScript 7, WebGPU in lib.dom', `${TS_7} -p tsconfig.json --skipLibCheck false`],
    ['TypeScript 7 for Node, no DOM', `${TS_7} -p tsconfig.node.json`],
    ['TypeScript 5.9 for Node, no DOM', `${TS_5} -p tsconfig.node.json`],
  ] as const)('%s', async ([, command], { expect }) => {
    const { code, stdout, stderr } = await shell(command, app);
    expect(`${stdout}${stderr}`).toBe('');
    expect(code).toBe(0);
  });
});

test('the CLI from the installed tarball: --help, build and inspect', async () => {
  const help = await shell('npx syclts --help', app);
  expect(help.code, help.stderr).toBe(0);
  expect(help.stdout).toMatch(/syclts build <files\.\.\.> --out-dir DIR/);
  const build = await shell('npx syclts build src/kernels.sycl.ts --out-dir cli-out', app);
  expect(build.code, build.stderr).toBe(0);
  expect(build.stdout).toContain('1 device image written to cli-out');
  const inspect = await shell('npx syclts inspect cli-out', app);
  expect(inspect.code, inspect.stderr).toBe(0);
  expect(inspect.stdout).toContain('@id 0       src/kernels.sycl.ts#gain: f32 = 2');
  expect(inspect.stdout).toContain('src/kernels.sycl.ts#scale -> k_scale');
});

test('publint and are-the-types-wrong find nothing wrong in any tarball; each has its README and LICENSE', async () => {
  await Promise.all(Object.values(tarballs).map(checkTarball));
});

async function checkTarball(tarball: string): Promise<void> {
  const { stdout: listing } = await exec('tar', ['-tzf', tarball]);
  expect(listing.split('\n')).toEqual(
    expect.arrayContaining(['package/README.md', 'package/LICENSE', 'package/package.json']),
  );
  const publint = await shell(`npx publint run ${tarball} --level warning`, repoRoot);
  expect(publint.code, publint.stdout + publint.stderr).toBe(0);
  expect(publint.stdout).toMatch(/All good!/);
  // ESM-only packages: the CommonJS and node10 resolutions are out of scope.
  const attw = await shell(`npx attw ${tarball} --profile esm-only --format ascii`, repoRoot);
  expect(attw.code, attw.stdout + attw.stderr).toBe(0);
  expect(attw.stdout).toMatch(/node16 \(from ESM\): 🟢/);
  expect(attw.stdout).toMatch(/bundler: 🟢/);
}

test('a browser app that depends on the runtime installs no Dawn', async () => {
  const browserApp = join(work, 'browser-only');
  await mkdir(browserApp);
  await writeFile(
    join(browserApp, 'package.json'),
    JSON.stringify({
      name: 'browser-only',
      private: true,
      dependencies: {
        '@syclts/dsl': `file:${tarballs['@syclts/dsl']}`,
        '@syclts/runtime': `file:${tarballs['@syclts/runtime']}`,
      },
    }),
  );
  await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: browserApp,
  });
  const ls = await shell('npm ls webgpu --omit=dev --parseable', browserApp);
  expect(ls.stdout.trim()).toBe('');
  const { stdout } = await exec('npm', ['ls', '--all', '--omit=dev', '--parseable'], {
    cwd: browserApp,
  });
  const installed = stdout
    .trim()
    .split('\n')
    .slice(1)
    .map((path) => path.slice(browserApp.length + 1));
  expect(installed.sort()).toEqual(['node_modules/@syclts/dsl', 'node_modules/@syclts/runtime']);
});
