import syclts from 'unplugin-syclts/vite';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  // 'both': matmulFixedBlock can run natively or emulated; matmul (its workgroup sized by the
  // constant) gets the native variant only.
  plugins: [syclts({ specConstants: 'both' })],
  // Inside this repository, take the workspace packages from their sources (no build needed).
  resolve: { conditions: ['@syclts/source', ...defaultClientConditions] },
  build: { outDir: 'dist/web', target: 'esnext' },
});
