/**
 * The matrix multiply in Node: picks the block size from the device's limits, runs the blocked
 * kernel natively and the fixed-block kernel natively and emulated, checks each result against
 * the CPU and prints GFLOP/s side by side.
 *
 *   node dist/node/main.mjs [--size N] [--repeat R] [--json [--matrices]]
 *
 * `--matrices` adds the inputs and every product to the JSON report.
 */
import { parseArgs } from 'node:util';
import { createQueues, describeReport, multiplyAll } from './multiply.ts';

const { values: flags } = parseArgs({
  options: {
    size: { type: 'string', default: '64' },
    repeat: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
    matrices: { type: 'boolean', default: false },
  },
});

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`${flag} takes a positive integer, got ${text}`);
  }
  return value;
}

const report = await multiplyAll(
  await createQueues(),
  positiveInteger('--size', flags.size),
  positiveInteger('--repeat', flags.repeat),
  flags.matrices,
);
console.log(
  "syclts matmul: CP015's blocked matrix multiply, the block size a specialization constant",
);
for (const line of describeReport(report)) console.log(line);
if (flags.json) console.log(JSON.stringify(report));

// Dawn in Node aborts at a natural exit while a GPU device is alive: end the process explicitly.
process.exit(report.ok ? 0 : 1);
