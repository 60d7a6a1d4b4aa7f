/**
 * Records the front's allocation budget (issue 20): bytes the main thread
 * allocates per request of each kind of test/helpers/budget/front-allocation.ts,
 * written to test/process/front-allocation.baseline.json with --write, which
 * test/process/front-allocation-budget.test.ts compares every run with.
 *
 *   npm run build && npm run build:tests && node build/bench/http/front-allocation.js [--write]
 *
 * With --write it runs three times and records each kind's median. Rewrite
 * the baseline when a change costs allocations on purpose (a feature), and
 * say so in the commit: the test exists so that nobody pays for them by
 * accident.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REQUEST_KINDS, measureKind } from '../../test/helpers/budget/front-allocation.js';

const BASELINE = fileURLToPath(new URL('../../../test/process/front-allocation.baseline.json', import.meta.url));

/** Runs behind a baseline: one run can sit at either end of the runs' spread (about 2%), the median of three in its middle. */
const BASELINE_RUNS = 3;

const runs = process.argv.includes('--write') ? BASELINE_RUNS : 1;
const figures = new Map<string, number[]>(REQUEST_KINDS.map((kind) => [kind.name, []]));
for (let run = 1; run <= runs; run++) {
  // All kinds at once, as the test measures them: each in a process of its own.
  const costs = await Promise.all(REQUEST_KINDS.map(measureKind));
  if (runs > 1) console.log(`run ${run} of ${runs}`);
  for (const cost of costs) {
    console.log(`${cost.bytesPerRepetition.toLocaleString('en').padStart(9)} bytes  ${cost.name}`);
    figures.get(cost.name)?.push(cost.bytesPerRepetition);
  }
}
if (process.argv.includes('--write')) {
  const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const bytesPerRepetition = Object.fromEntries([...figures].map(([name, values]) => [name, median(values)]));
  const baseline = { node: process.version, recorded: new Date().toISOString(), runs, bytesPerRepetition };
  writeFileSync(BASELINE, `${JSON.stringify(baseline, null, 2)}\n`);
  console.log(`the median of ${runs} runs written to ${BASELINE}`);
}
