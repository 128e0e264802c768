import syclts from 'unplugin-syclts/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  // 'both': every filter can run natively (a pipeline per filter) or emulated (one pipeline).
  plugins: [syclts({ specConstants: 'both' })],
  build: { outDir: 'dist/web', target: 'esnext' },
});
