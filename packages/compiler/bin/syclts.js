#!/usr/bin/env node
// The `syclts` command. It lives outside dist/ so that npm links it at install time, before
// anything is built, and a fresh checkout's `npx syclts` never falls back to the registry.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(main)) {
  await import(main.href);
} else {
  process.stderr.write(
    'syclts: the compiler is not built (dist/cli/main.js is missing); run `npm run build` in the repository first\n',
  );
  process.exitCode = 1;
}
