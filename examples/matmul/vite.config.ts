import syclts from 'unplugin-syclts/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  // 'both': matmulFixedBlock can run natively or emulated; matmul (its workgroup sized by the
  // constant) gets the native variant only.
  plugins: [syclts({ specConstants: 'both' })],
  build: { outDir: 'dist/web', target: 'esnext' },
});
