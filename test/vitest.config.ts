import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineConfig({ test: { include: ['specs/**/*.test.ts'], testTimeout: 120_000 } }),
);
