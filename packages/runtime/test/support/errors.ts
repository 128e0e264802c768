import { expect } from 'vitest';
import { SyclError } from '../../src/index.js';

/** The SyclError `run` throws synchronously (fails the test when it throws nothing else). */
export function caught(run: () => unknown): SyclError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SyclError);
    return error as SyclError;
  }
  throw new Error('expected a SyclError');
}

/** The SyclError `run`'s promise rejects with. */
export async function rejected(run: () => Promise<unknown>): Promise<SyclError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(SyclError);
    return error as SyclError;
  }
  throw new Error('expected a SyclError');
}
