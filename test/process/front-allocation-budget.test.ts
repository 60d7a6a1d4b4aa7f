/**
 * Issue 20's budget: what the front costs per request, in bytes its thread
 * allocates (a count a noisy machine cannot move, unlike seconds), for a
 * fixed mix of requests (test/helpers/budget/front-allocation.ts), against the
 * baseline committed in test/process/front-allocation.baseline.json. A change that
 * allocates more than MARGIN above it fails here; one that costs more on
 * purpose records a new baseline (bench/http/front-allocation.ts --write) and
 * says so in its commit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { REQUEST_KINDS, measureKind } from '../helpers/budget/front-allocation.js';

/** Runs differ by at most about 2% (test/helpers/budget/front-allocation.ts has the figures). */
const MARGIN = 0.1;

interface Baseline {
  readonly node: string;
  readonly bytesPerRepetition: Readonly<Record<string, number>>;
}

const baseline = JSON.parse(readFileSync(join(process.cwd(), 'test/process/front-allocation.baseline.json'), 'utf8')) as Baseline;

test(`the front allocates at most ${MARGIN * 100}% more per request than the committed baseline, for every kind of the mix`, async (t) => {
  t.deepEqual(REQUEST_KINDS.map((kind) => kind.name).sort(), Object.keys(baseline.bytesPerRepetition).sort(), 'every kind has a baseline');
  const costs = await Promise.all(REQUEST_KINDS.map(measureKind));
  for (const cost of costs) {
    const allowed = (baseline.bytesPerRepetition[cost.name] ?? 0) * (1 + MARGIN);
    t.log(`${cost.name}: ${cost.bytesPerRepetition} bytes (baseline ${baseline.bytesPerRepetition[cost.name]}, Node ${baseline.node})`);
    t.true(cost.bytesPerRepetition <= allowed, `${cost.name} allocates ${cost.bytesPerRepetition} bytes a time, past the budget of ${Math.round(allowed)}`);
  }
});
