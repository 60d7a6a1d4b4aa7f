/**
 * Records the front's allocation budget (issue 20): bytes the main thread
 * allocates per request of each kind of test/helpers/front-allocation.ts,
 * written to test/front-allocation.baseline.json with --write, which
 * test/front-allocation-budget.test.ts compares every run with.
 *
 *   npm run build && npm run build:tests && node build/bench/http/front-allocation.js [--write]
 *
 * Rewrite the baseline when a change costs allocations on purpose (a
 * feature), and say so in the commit: the test exists so that nobody pays
 * for them by accident.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REQUEST_KINDS, measureKind } from '../../test/helpers/front-allocation.js';

const BASELINE = fileURLToPath(new URL('../../../test/front-allocation.baseline.json', import.meta.url));

// All kinds at once, as the test measures them: each in a process of its own.
const costs = await Promise.all(REQUEST_KINDS.map(measureKind));
for (const cost of costs) console.log(`${cost.bytesPerRepetition.toLocaleString('en').padStart(9)} bytes  ${cost.name}`);
if (process.argv.includes('--write')) {
  const baseline = { node: process.version, recorded: new Date().toISOString(), bytesPerRepetition: Object.fromEntries(costs.map((cost) => [cost.name, cost.bytesPerRepetition])) };
  writeFileSync(BASELINE, `${JSON.stringify(baseline, null, 2)}\n`);
  console.log(`written to ${BASELINE}`);
}
