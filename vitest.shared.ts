import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/** Tests resolve workspace packages to their TypeScript sources, so no build is needed first. */
export const sourceConditions = ['@syclts/source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions: sourceConditions },
  ssr: { resolve: { conditions: sourceConditions } },
  test: { include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
