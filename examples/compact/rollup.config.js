import { nodeResolve } from '@rollup/plugin-node-resolve';
import esbuild from 'rollup-plugin-esbuild';
import syclts from 'unplugin-syclts/rollup';

/** Device-code libraries are bundled: their `.sycl.ts` modules link into this program. */
const DEVICE_LIBRARIES = ['@syclts/algorithms'];

export default {
  input: 'src/main.ts',
  output: { dir: 'dist', format: 'es', sourcemap: true },
  // Other packages stay imports, resolved by Node when the bundle runs.
  external: (id) => /^[@a-z]/.test(id) && !DEVICE_LIBRARIES.some((name) => id.startsWith(name)),
  // syclts first: it reads the TypeScript source before esbuild strips the types.
  plugins: [
    nodeResolve({ extensions: ['.ts', '.js'], resolveOnly: DEVICE_LIBRARIES }),
    syclts(),
    esbuild({ target: 'node20' }),
  ],
};
