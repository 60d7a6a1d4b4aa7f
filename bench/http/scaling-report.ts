/**
 * The report's scaling part: the service alone at each collection size (10 to
 * 1,000,000 products), by id and POST+DELETE, with its memory; and issue 4's
 * scaling targets judged against it.
 */
import { duration, fixed, integer, mebibytes, percent, ratio, share, table } from '../harness/report-format.js';
import { cpuCell, type RoundsMeasurement } from './rounds.js';
import type { RunRecord, ScalingStep } from './run-record.js';
import { NOISY, undecided, type Verdict } from './verdicts.js';

export function scalingTable(record: RunRecord): string {
  const rows: string[][] = [];
  for (const step of record.scaling) {
    const seeded = step.seed !== undefined ? duration(step.seed.seconds) : step.failure === undefined ? 'as started' : '–';
    const memory = [mebibytes(step.memoryAfterSeed?.rssBytes), mebibytes(step.memoryAfterLoad?.rssBytes), mebibytes(step.memoryAfterLoad?.peakRssBytes)];
    if (step.failure !== undefined) rows.push([integer(step.size), seeded, '–', '–', '–', '–', '–', '–', ...memory, `FAILED: ${step.failure}`]);
    for (const { name, measurement: m } of step.cases) {
      const notes = m.warnings;
      const checks = m.problems.length === 0 ? ['ok', ...notes].join('; ') : `INVALID: ${[...m.problems, ...notes].join('; ')}`;
      rows.push([
        integer(step.size),
        seeded,
        name,
        integer(m.requestsPerSecond),
        fixed(m.p50Ms, 2),
        `${m.errors > 0 ? '≥ ' : ''}${fixed(m.p99Ms, 2)}`,
        cpuCell(m),
        `${share(m.serverBusy)} / ${share(m.loadBusy)} / ${share(m.othersBusy)}`,
        ...memory,
        checks,
      ]);
    }
  }
  return table(
    ['products', 'seeded in', 'case', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req (range)', 'CPU busy: server / load / others', 'RSS after seed', 'RSS after both cases', 'peak RSS', 'checks'],
    rows,
  );
}

export function scalingVerdicts(record: RunRecord): Verdict[] {
  const smallest = record.scaling.find((step) => step.size === 10);
  const million = record.scaling.find((step) => step.size === 1_000_000);
  const byId = (step: ScalingStep | undefined): RoundsMeasurement | undefined => {
    const m = step?.cases.find((c) => c.name.startsWith('GET'))?.measurement;
    return m !== undefined && m.problems.length === 0 ? m : undefined;
  };
  const verdicts: Verdict[] = [];
  const small = byId(smallest);
  const large = byId(million);
  if (small === undefined || large === undefined) {
    verdicts.push({ met: undefined, text: 'by-id requests/s at 1,000,000 products at least 0.9× that at 10 (not measured at both sizes in this run)' });
  } else {
    const r = large.requestsPerSecond / small.requestsPerSecond;
    verdicts.push({
      met: r >= 0.9,
      text: `by-id requests/s at 1,000,000 products at least 0.9× that at 10: ${integer(large.requestsPerSecond)} vs ${integer(small.requestsPerSecond)} = ${ratio(r)}${r >= 0.9 ? '' : ` (${percent(1 - r / 0.9)} short)`}${undecided(large.rpsRange, small.rpsRange, 1 / 0.9, r, 0.9) ? NOISY : ''}`,
    });
  }
  const memory = million?.memoryAfterLoad;
  if (memory === undefined || million?.failure !== undefined) {
    verdicts.push({ met: undefined, text: 'memory at 1,000,000 products under 512 MB (not measured in this run)' });
  } else {
    const limit = 512 * 1024 ** 2;
    verdicts.push({
      met: memory.rssBytes < limit,
      text: `memory at 1,000,000 products under 512 MB: RSS ${mebibytes(memory.rssBytes)} after the runs (peak ${mebibytes(memory.peakRssBytes)})${memory.rssBytes < limit ? '' : ` (${percent(memory.rssBytes / limit - 1)} over)`}`,
    });
  }
  return verdicts;
}
