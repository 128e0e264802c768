import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs a built bundle in a fresh Node process and parses the JSON line it prints last. */
export async function runBundle<T>(file: string, args: readonly string[] = []): Promise<T> {
  const { stdout } = await run(process.execPath, [file, ...args], { encoding: 'utf8' });
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as T;
}
