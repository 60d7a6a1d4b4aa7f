/**
 * Issue 4's targets judged against the catalogue's rows (CPU per request
 * against Fastify's, requests/s against Fastify's and Express's, the mix's
 * by-id p99; issue 11's 304 against its 200) and against the scaling run.
 */
import { fixed, percent, ratio } from '../harness/report-format.js';
import type { RoundsMeasurement } from './rounds.js';
import { find, valid, type RunRecord } from './run-record.js';
import { catalogueScenarios } from './catalogue-tables.js';
import { scalingVerdicts } from './scaling-report.js';
import { NOISE, NOISY, undecided, verdictLine, type Verdict } from './verdicts.js';

/** Issue 11: a 304 (a304) costs less than the 200 it replaces (a), the service against itself. */
function notModifiedVerdict(record: RunRecord, service: string): Verdict {
  const revalidated = valid(find(record, 'a304', service))?.cpuMicrosPerRequest;
  const full = valid(find(record, 'a', service))?.cpuMicrosPerRequest;
  if (revalidated === undefined || full === undefined) return { met: undefined, text: 'a304: a 304 costs less CPU than the 200 of a (a304 or a not run, or invalid)' };
  const r = revalidated / full;
  return { met: r < 1, text: `a304: a 304 costs less CPU than the 200 of a: ${fixed(revalidated, 1)} vs ${fixed(full, 1)} µs = ${ratio(r)}` };
}

function serviceVerdicts(record: RunRecord, service: string): Verdict[] {
  const verdicts: Verdict[] = [];
  const b = record.baseline;
  const pair = (id: string, other: string): [RoundsMeasurement | undefined, RoundsMeasurement | undefined, string | undefined] => {
    const mine = find(record, id, service);
    const theirs = find(record, id, other);
    if (mine === undefined || theirs === undefined) return [undefined, undefined, `${id} was not run for both ${service} and ${other}`];
    const why = [mine, theirs].filter((r) => valid(r) === undefined).map((r) => `${r.server.name}'s row is invalid or missing`);
    return [valid(mine), valid(theirs), why.length > 0 ? why.join(', ') : undefined];
  };

  for (const id of ['a', 'b', 'e', 'f']) {
    const [mine, theirs, why] = pair(id, b);
    if (why !== undefined || mine?.cpuMicrosPerRequest === undefined || theirs?.cpuMicrosPerRequest === undefined) {
      verdicts.push({ met: undefined, text: `${id}: CPU per request at or below ${b}'s (${why ?? 'no CPU figures'})` });
      continue;
    }
    const r = mine.cpuMicrosPerRequest / theirs.cpuMicrosPerRequest;
    verdicts.push({
      met: r <= 1,
      text: `${id}: CPU per request at or below ${b}'s: ${fixed(mine.cpuMicrosPerRequest, 1)} vs ${fixed(theirs.cpuMicrosPerRequest, 1)} µs = ${ratio(r)}${r <= 1 ? '' : ` (${percent(r - 1)} over)`}${undecided(mine.cpuRange, theirs.cpuRange, 1, r, 1) ? NOISY : ''}`,
    });
  }
  for (const [id, factor] of [['d', 2.5], ['c', 10]] as const) {
    const [mine, theirs, why] = pair(id, b);
    if (why !== undefined || mine?.cpuMicrosPerRequest === undefined || theirs?.cpuMicrosPerRequest === undefined) {
      verdicts.push({ met: undefined, text: `${id}: CPU per request at least ${factor}× better than ${b}'s (${why ?? 'no CPU figures'})` });
      continue;
    }
    const better = theirs.cpuMicrosPerRequest / mine.cpuMicrosPerRequest;
    verdicts.push({
      met: better >= factor,
      text: `${id}: CPU per request at least ${factor}× better than ${b}'s: ${fixed(mine.cpuMicrosPerRequest, 1)} vs ${fixed(theirs.cpuMicrosPerRequest, 1)} µs = ${better.toFixed(2)}× better${better >= factor ? '' : ` (needs ${factor}×: ${percent(1 - better / factor)} short)`}${undecided(mine.cpuRange, theirs.cpuRange, factor, better, factor) ? NOISY : ''}`,
    });
  }
  for (const [other, factor] of [[b, 1], ['express', 5]] as const) {
    const short: string[] = [];
    const notJudged: string[] = [];
    const seen: string[] = [];
    // A revalidation (a304) is the service's alone: it is judged against its own 200 below.
    for (const scenario of catalogueScenarios(record).filter((each) => each.family !== 'catalogue' || each.revalidates === undefined)) {
      const [mine, theirs, why] = pair(scenario.id, other);
      if (why !== undefined || mine === undefined || theirs === undefined) {
        notJudged.push(`${scenario.id} (${why ?? 'missing'})`);
        continue;
      }
      const r = mine.requestsPerSecond / theirs.requestsPerSecond;
      seen.push(`${scenario.id} ${ratio(r)}`);
      const noisy = undecided(mine.rpsRange, theirs.rpsRange.map((v) => v * factor) as [number, number], 1, r, factor);
      if (r < factor) short.push(`${scenario.id} ${ratio(r)} (${percent(1 - r / factor)} short${noisy ? ', within noise' : ''})`);
    }
    const goal = factor === 1 ? `requests/s at or above ${other}'s on every scenario` : `requests/s at least ${factor}× ${other}'s on every scenario`;
    verdicts.push({
      met: notJudged.length > 0 ? (short.length > 0 ? false : undefined) : short.length === 0,
      text: `${goal}: ${seen.join(', ') || 'nothing to compare'}${short.length > 0 ? `; short on ${short.join(', ')}` : ''}${notJudged.length > 0 ? `; not judged on ${notJudged.join(', ')}` : ''}`,
    });
  }
  verdicts.push(notModifiedVerdict(record, service));
  const [mine, theirs, why] = pair('g', b);
  const mineById = mine?.kinds.byId;
  const theirsById = theirs?.kinds.byId;
  if (why !== undefined || mineById === undefined || theirsById === undefined) {
    verdicts.push({ met: undefined, text: `g: by-id p99 at most a third of ${b}'s (${why ?? 'missing'})` });
  } else {
    const r = mineById.p99Ms / theirsById.p99Ms;
    verdicts.push({
      met: r <= 1 / 3,
      text: `g: by-id p99 at most a third of ${b}'s: ${fixed(mineById.p99Ms, 2)} vs ${fixed(theirsById.p99Ms, 2)} ms = ${ratio(r)}${r <= 1 / 3 ? '' : ` (needs ≤ 0.33×: ${(r * 3).toFixed(2)}× the allowed p99)`}${Math.abs(r * 3 - 1) < NOISE ? ' (within 5%: a repeat run may decide it the other way)' : ''}`,
    });
  }
  return verdicts;
}

export function targetsSection(record: RunRecord): string {
  const lines: string[] = ['## Targets (issue 4)', ''];
  if (record.options.smoke) lines.push('_Smoke run: a fraction of a second per case is too short to judge; these lines only show that the evaluation works._', '');
  if (record.placement === 'unpinned') lines.push('_Unpinned run: the targets assume one core per server and here each could use every core: the verdicts below show the numbers, not whether the issue\'s targets are met._', '');
  const services = record.serverNames.filter((name) => record.cases.some((c) => c.server.name === name && c.server.role === 'service' && c.server.family === 'catalogue'));
  for (const service of services) {
    lines.push(`### ${service}`, '', ...serviceVerdicts(record, service).map(verdictLine), '');
  }
  if (!services.includes('catalogue+bearer')) {
    lines.push('### catalogue+bearer', '', verdictLine({ met: undefined, text: 'the targets with a Bearer rule on the measured route: not run (`npm run bench -- --with-bearer` once /login and PROTECT exist)' }), '');
  }
  lines.push(`### scaling (${record.scalingServer})`, '', ...scalingVerdicts(record).map(verdictLine), '');
  return lines.join('\n');
}
