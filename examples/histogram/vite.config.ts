import syclts from 'unplugin-syclts/vite';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  plugins: [syclts()],
  // Inside this repository, take the workspace packages from their sources (no build needed).
  resolve: { conditions: ['@syclts/source', ...defaultClientConditions] },
  build: { outDir: 'dist/web', target: 'esnext' },
});
