/**
 * A device module another plugin makes (its `resolveId` and `load` hooks, no file on disk) or
 * rewrites (its `transform`, before this plugin's) is compiled as that plugin makes it, also where
 * a device module imports it: the plugin loads imported device modules through the bundler. An
 * import cycle between device modules does not wait for itself.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rolldown } from 'rolldown';
import { rollup } from 'rollup';
import esbuildTransform from 'rollup-plugin-esbuild';
import sycltsRolldown from 'unplugin-syclts/rolldown';
import sycltsRollup from 'unplugin-syclts/rollup';
import sycltsVite from 'unplugin-syclts/vite';
import { createServer, build as viteBuild } from 'vite';
import { expect, test } from 'vitest';
import { stageApp } from '../helpers/paths.js';

const GENERATED = `import { specializationId, u32 } from '@syclts/dsl';
export const offset = specializationId(u32, __OFFSET__);
`;

/** Makes src/generated.sycl.ts, which is not on disk, and fills its placeholder in. */
function generated(root: string) {
  const file = join(root, 'src/generated.sycl.ts');
  return {
    name: 'generated-device-module',
    enforce: 'pre' as const,
    resolveId(source: string) {
      // As an import, and as the dev server's URL for it.
      return source === './generated.sycl.ts' || source === '/src/generated.sycl.ts' ? file : null;
    },
    load(id: string) {
      return id === file ? GENERATED : null;
    },
    transform(code: string, id: string) {
      return id === file ? code.replace('__OFFSET__', '42') : null;
    },
  };
}

const external = (id: string) => /^@syclts\//.test(id);

interface LinkedProgram {
  readonly images: readonly {
    readonly specConstants: Readonly<Record<string, { readonly defaultValue: unknown }>>;
  }[];
}

/** The program the bundle holds: its linked JSON, as the output's string literal. */
function program(code: string): LinkedProgram {
  const literal = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(code)?.[1];
  if (!literal) throw new Error(`no linked program in:\n${code}`);
  return JSON.parse(JSON.parse(literal) as string);
}

const builds = {
  async rollup(root: string, entry: string): Promise<string> {
    const bundle = await rollup({
      input: join(root, entry),
      external,
      plugins: [generated(root), sycltsRollup({ root }), esbuildTransform({ target: 'node20' })],
    });
    const { output } = await bundle.generate({ format: 'es' });
    await bundle.close();
    return output[0].code;
  },
  async rolldown(root: string, entry: string): Promise<string> {
    const bundle = await rolldown({
      cwd: root,
      input: join(root, entry),
      platform: 'node',
      external,
      plugins: [generated(root), sycltsRolldown({ root })],
      logLevel: 'silent',
    });
    const { output } = await bundle.generate({ format: 'es' });
    await bundle.close();
    return output[0].code;
  },
  async vite(root: string, entry: string): Promise<string> {
    const outDir = join(root, 'dist');
    await viteBuild({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [generated(root), sycltsVite()],
      build: {
        ssr: true,
        outDir,
        emptyOutDir: true,
        minify: false,
        target: 'node20',
        rollupOptions: {
          input: join(root, entry),
          external,
          output: { format: 'es', entryFileNames: '[name].js' },
        },
      },
      ssr: { noExternal: true },
    });
    const [name] = readdirSync(outDir).filter((file) => file.endsWith('.js'));
    return readFileSync(join(outDir, name!), 'utf8');
  },
};

test.each(Object.keys(builds) as (keyof typeof builds)[])(
  '%s: an imported device module is compiled as the other plugins load and transform it',
  async (bundler) => {
    const root = stageApp('generated', `generated-${bundler}`);
    const code = await builds[bundler](root, 'src/scale.sycl.ts');
    // The generated module's constant, with the default its transform gave it.
    const [image] = program(code).images;
    expect(image?.specConstants['src/generated.sycl.ts#offset']?.defaultValue).toBe(42);
  },
);

test.each(Object.keys(builds) as (keyof typeof builds)[])(
  '%s: device modules that import each other build (no load waits for the transform that waits for it)',
  async (bundler) => {
    const root = stageApp('device-cycle', `device-cycle-${bundler}`);
    const [image] = program(await builds[bundler](root, 'src/a.sycl.ts')).images;
    expect(image?.specConstants['src/a.sycl.ts#base']?.defaultValue).toBe(3);
  },
);

test('the Vite dev server: an imported device module is compiled as the other plugins load and transform it', async () => {
  const root = stageApp('generated', 'generated-vite-dev');
  // Vite's dev server wants a file behind a module ID that looks like a path. This one declares
  // an f32 constant, which scale.sycl.ts cannot add to a u32; the other plugin's hooks, which
  // make the module, declare the u32 that it can.
  writeFileSync(
    join(root, 'src/generated.sycl.ts'),
    "import { f32, specializationId } from '@syclts/dsl';\nexport const offset = specializationId(f32, 7);\n",
  );
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [generated(root), sycltsVite()],
    server: { watch: null },
    optimizeDeps: { noDiscovery: true },
  });
  try {
    await server.transformRequest('/src/main.ts');
    await server.transformRequest('/src/scale.sycl.ts');
    const linked = await server.transformRequest('~syclts/program');
    const [image] = program(linked?.code ?? '').images;
    expect(image?.specConstants['src/generated.sycl.ts#offset']?.defaultValue).toBe(42);
  } finally {
    await server.close();
  }
});
