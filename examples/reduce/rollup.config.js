import esbuild from 'rollup-plugin-esbuild';
import syclts from 'unplugin-syclts/rollup';

export default {
  input: 'src/main.ts',
  output: { dir: 'dist', format: 'es', sourcemap: true },
  // Packages stay imports, resolved by Node when the bundle runs.
  external: (id) => /^[@a-z]/.test(id),
  // syclts first: it reads the TypeScript source before esbuild strips the types.
  plugins: [syclts(), esbuild({ target: 'node20' })],
};
