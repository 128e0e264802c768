import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Most of these tests compile and interpret in one thread each: a worker per core keeps every
// core busy (vitest's default leaves one idle).
export default mergeConfig(shared, defineConfig({ test: { maxWorkers: '100%' } }));
