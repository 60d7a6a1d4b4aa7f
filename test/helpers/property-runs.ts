/**
 * How many cases a property test tries: `full` in `npm test` (what CI runs),
 * PROPERTY_RUNS_SCALE of it (at least 10) where that is set: `npm run
 * test:quick` sets a quarter (ava.quick.config.js), trading depth of search
 * in the inner loop for time. The whole suite searches as deep as ever.
 */
const scale = Number(process.env.PROPERTY_RUNS_SCALE ?? '1');
if (!(scale > 0 && scale <= 1)) throw new RangeError(`PROPERTY_RUNS_SCALE must be in (0, 1], got ${String(process.env.PROPERTY_RUNS_SCALE)}`);

export const propertyRuns = (full: number): number => Math.max(Math.min(full, 10), Math.round(full * scale));
