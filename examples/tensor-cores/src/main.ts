/**
 * The tensor-core matrix multiply in Node: every tiling the device fits, each result checked
 * against float64, TFLOP/s side by side.
 *
 *   node dist/node/main.mjs [--size N] [--repeat R] [--json]
 */
import { parseArgs } from 'node:util';
import { createQueue, describeReport, multiplyAll } from './multiply.ts';

const { values: flags } = parseArgs({
  options: {
    size: { type: 'string', default: '1024' },
    repeat: { type: 'string', default: '20' },
    json: { type: 'boolean', default: false },
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
  await createQueue(),
  positiveInteger('--size', flags.size),
  positiveInteger('--repeat', flags.repeat),
);
console.log('syclts tensor-cores: f16 x f16 -> f32 matrix multiply on joint matrices');
for (const line of describeReport(report)) console.log(line);
if (flags.json) console.log(JSON.stringify(report));

// Dawn in Node aborts at a natural exit while a GPU device is alive: end the process explicitly.
process.exit(report.ok ? 0 : 1);
