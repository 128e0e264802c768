/**
 * The histogram in Node: several launches add to bins kept in a device global, the host copies
 * them back and checks them against the CPU, and copies that break `hostAccess` are refused.
 *
 *   node dist/node/main.mjs [--batches B] [--samples N] [--json [--inputs]]
 *
 * `--inputs` adds the value range and every batch's samples to the JSON report.
 */
import { parseArgs } from 'node:util';
import { Queue } from '@syclts/runtime';
import { describeReport, runHistogram } from './histogram.ts';

const { values: flags } = parseArgs({
  options: {
    batches: { type: 'string', default: '4' },
    samples: { type: 'string', default: '4096' },
    json: { type: 'boolean', default: false },
    inputs: { type: 'boolean', default: false },
  },
});

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`${flag} takes a positive integer, got ${text}`);
  }
  return value;
}

const report = await runHistogram(await Queue.create(), {
  batches: positiveInteger('--batches', flags.batches),
  samplesPerBatch: positiveInteger('--samples', flags.samples),
  keepInputs: flags.inputs,
});
console.log('syclts histogram: bins kept in a device global across kernel launches');
for (const line of describeReport(report)) console.log(line);
if (flags.json) console.log(JSON.stringify(report));

// Dawn in Node aborts at a natural exit while a GPU device is alive: end the process explicitly.
process.exit(report.ok ? 0 : 1);
