import syclts from 'unplugin-syclts/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [syclts()],
  build: { outDir: 'dist/web', target: 'esnext' },
});
