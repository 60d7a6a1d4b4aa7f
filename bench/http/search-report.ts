/**
 * The report's marketplace part: one row per search case and server, with
 * the seeding time and the server's memory beside the figures and the ratios
 * against Fastify filtering, sorting and slicing an array; then the targets
 * of issue "Marketplace part 1" judged against them.
 */
import type { Scenario } from './scenario-types.js';
import { itemsWithRareWord } from '../search/shop-products.js';
import { duration, fixed, integer, mebibytes, percent, ratio, share, table } from '../harness/report-format.js';
import { cpuCell, type RoundsMeasurement } from './rounds.js';
import { find, valid, type CaseResult, type RunRecord } from './run-record.js';
import { NOISY, undecided, verdictLine, type Verdict } from './verdicts.js';

/** The issue's figures: h's CPU against the peer's, h1M's req/s against h10k's, h1M's RSS. */
const H_CPU_FACTOR = 20;
const MILLION_RPS_SHARE = 0.8;
const MILLION_RSS_LIMIT = 600 * 1024 ** 2;
/** Issue 20's (the text index): j's CPU against the peer's, and a text search's CPU at a million against at 10,000. */
const J_CPU_FACTOR = 20;
const TEXT_FLAT_LIMIT = 1.25;

function searchScenarios(record: RunRecord): Scenario[] {
  return record.scenarios.filter((scenario) => scenario.family === 'marketplace');
}

/** One seeding's time, or the lowest and highest of several. */
function seededCell(result: CaseResult): string {
  const seconds = result.seeds.map((seed) => seed.seconds);
  if (seconds.length === 0) return '–';
  const low = Math.min(...seconds);
  const high = Math.max(...seconds);
  return seconds.length === 1 || high - low < 0.05 ? duration(high) : `${low.toFixed(1)}–${duration(high)}`;
}

function searchTable(record: RunRecord): string {
  const b = record.marketplaceBaseline;
  const header = [
    'case', 'server', 'seeded in', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req (range)', `req/s ÷ ${b}`, `CPU ÷ ${b}`, `p99 ÷ ${b}`,
    'CPU busy: server / load / others', 'RSS after seed', 'RSS after load (peak)', 'errors', 'unexpected', 'checks',
  ];
  const rows: string[][] = [];
  for (const scenario of searchScenarios(record)) {
    const base = valid(find(record, scenario.id, b));
    for (const name of record.serverNames) {
      const result = find(record, scenario.id, name);
      if (result === undefined) continue;
      const label = `${scenario.id} ${scenario.name}: ${scenario.describe(result.size)}`;
      const memory = result.memory;
      const rss = [mebibytes(memory?.afterSeed?.rssBytes), memory?.afterLoad === undefined ? '–' : `${mebibytes(memory.afterLoad.rssBytes)} (${mebibytes(memory.afterLoad.peakRssBytes)})`];
      const m = result.measurement;
      if (m === undefined) {
        rows.push([label, name, seededCell(result), ...header.slice(3, 11).map(() => '–'), ...rss, '–', '–', `FAILED: ${result.failure ?? 'no measurement'}`]);
        continue;
      }
      const ok = m.problems.length === 0;
      const compare = (mine: number | undefined, theirs: number | undefined): string => ratio(ok && mine !== undefined && theirs !== undefined ? mine / theirs : undefined);
      rows.push([
        label,
        name,
        seededCell(result),
        integer(m.requestsPerSecond),
        fixed(m.p50Ms, 2),
        `${m.errors > 0 ? '≥ ' : ''}${fixed(m.p99Ms, 2)}`,
        cpuCell(m),
        compare(m.requestsPerSecond, base?.requestsPerSecond),
        compare(m.cpuMicrosPerRequest, base?.cpuMicrosPerRequest),
        compare(m.p99Ms, base?.p99Ms),
        `${share(m.serverBusy)} / ${share(m.loadBusy)} / ${share(m.othersBusy)}`,
        ...rss,
        String(m.errors),
        String(m.unexpected),
        ok ? ['ok', ...m.warnings].join('; ') : `INVALID: ${[...m.problems, ...m.warnings].join('; ')}`,
      ]);
    }
  }
  return table(header, rows);
}

/** The marketplace section, or undefined when no search case ran. */
export function searchSection(record: RunRecord): string | undefined {
  if (searchScenarios(record).length === 0) return undefined;
  const seedOnce = searchScenarios(record).filter((scenario) => scenario.family === 'marketplace' && scenario.seedOnce).map((scenario) => scenario.id);
  return [
    '## Marketplace search',
    '',
    `Each server seeded over HTTP with the same generated products (an administrator's POST /products, not measured; "seeded in" is that fill, the lowest and highest when there were several), ` +
      `then searched by an anonymous client. The first answer of each case is compared, product by product and field by field, with the answer worked out from what that server was sent, and so are X-Total-Count and, when paged, the Link header. ` +
      `Ratios are against ${record.marketplaceBaseline} (Fastify: filter the array, stable-sort the copy, slice). ` +
      `${seedOnce.length > 0 ? `${seedOnce.join(', ')}: one process per server, seeded once and measured in every round. ` : ''}RSS is read from /proc/PID/status once seeded and after the last round, in the process that ended the largest.`,
    '',
    searchTable(record),
    '',
  ].join('\n');
}

// ---- targets ----------------------------------------------------------------

/** A row that may be judged, or why not. */
function judged(record: RunRecord, scenarioId: string, server: string): RoundsMeasurement | string {
  const result = find(record, scenarioId, server);
  if (result === undefined) return `${scenarioId} was not run for ${server}`;
  return valid(result) ?? `${scenarioId}'s row for ${server} is invalid or missing`;
}

function searchVerdicts(record: RunRecord, service: string): (Verdict | string)[] {
  const b = record.marketplaceBaseline;
  const verdicts: (Verdict | string)[] = [];

  const hGoal = `h: CPU per request at least ${H_CPU_FACTOR}× better than ${b}'s`;
  const [h, hBase] = [judged(record, 'h', service), judged(record, 'h', b)];
  if (typeof h === 'string' || typeof hBase === 'string' || h.cpuMicrosPerRequest === undefined || hBase.cpuMicrosPerRequest === undefined) {
    verdicts.push({ met: undefined, text: `${hGoal} (${[h, hBase].filter((x) => typeof x === 'string').join(', ') || 'no CPU figures'})` });
  } else {
    const better = hBase.cpuMicrosPerRequest / h.cpuMicrosPerRequest;
    verdicts.push({
      met: better >= H_CPU_FACTOR,
      text: `${hGoal}: ${fixed(h.cpuMicrosPerRequest, 1)} vs ${fixed(hBase.cpuMicrosPerRequest, 1)} µs = ${better.toFixed(2)}× better${better >= H_CPU_FACTOR ? '' : ` (needs ${H_CPU_FACTOR}×: ${percent(1 - better / H_CPU_FACTOR)} short)`}${undecided(h.cpuRange, hBase.cpuRange, H_CPU_FACTOR, better, H_CPU_FACTOR) ? NOISY : ''}`,
    });
  }

  const { small: smallSize, million: millionSize } = record.options.shopSizes;
  const scaleGoal = `h1M: requests/s at ${integer(millionSize)} products at least ${MILLION_RPS_SHARE}× those at ${integer(smallSize)} (h10k)`;
  const [million, small] = [judged(record, 'h1M', service), judged(record, 'h10k', service)];
  if (typeof million === 'string' || typeof small === 'string') {
    verdicts.push({ met: undefined, text: `${scaleGoal} (${[million, small].filter((x) => typeof x === 'string').join(', ')})` });
  } else {
    const r = million.requestsPerSecond / small.requestsPerSecond;
    verdicts.push({
      met: r >= MILLION_RPS_SHARE,
      text: `${scaleGoal}: ${integer(million.requestsPerSecond)} vs ${integer(small.requestsPerSecond)} = ${ratio(r)}${r >= MILLION_RPS_SHARE ? '' : ` (${percent(1 - r / MILLION_RPS_SHARE)} short)`}${undecided(million.rpsRange, small.rpsRange, 1 / MILLION_RPS_SHARE, r, MILLION_RPS_SHARE) ? NOISY : ''}`,
    });
  }

  const memoryGoal = `h1M: ${service}'s RSS at ${integer(millionSize)} products under ${mebibytes(MILLION_RSS_LIMIT)}`;
  const memory = find(record, 'h1M', service)?.memory?.afterLoad;
  if (memory === undefined || typeof million === 'string') {
    verdicts.push({ met: undefined, text: `${memoryGoal} (${typeof million === 'string' ? million : 'no /proc figures'})` });
  } else {
    verdicts.push({
      met: memory.rssBytes < MILLION_RSS_LIMIT,
      text: `${memoryGoal}: RSS ${mebibytes(memory.rssBytes)} after the rounds (peak ${mebibytes(memory.peakRssBytes)})${memory.rssBytes < MILLION_RSS_LIMIT ? '' : ` (${percent(memory.rssBytes / MILLION_RSS_LIMIT - 1)} over)`}`,
    });
  }

  const jGoal = `j (issue 20): CPU per request at least ${J_CPU_FACTOR}× better than ${b}'s`;
  const [j, jBase] = [judged(record, 'j', service), judged(record, 'j', b)];
  if (typeof j === 'string' || typeof jBase === 'string' || j.cpuMicrosPerRequest === undefined || jBase.cpuMicrosPerRequest === undefined) {
    verdicts.push({ met: undefined, text: `${jGoal} (${[j, jBase].filter((x) => typeof x === 'string').join(', ') || 'no CPU figures'})` });
  } else {
    const better = jBase.cpuMicrosPerRequest / j.cpuMicrosPerRequest;
    verdicts.push({
      met: better >= J_CPU_FACTOR,
      text: `${jGoal}: ${fixed(j.cpuMicrosPerRequest, 1)} vs ${fixed(jBase.cpuMicrosPerRequest, 1)} µs = ${better.toFixed(2)}× better${better >= J_CPU_FACTOR ? '' : ` (needs ${J_CPU_FACTOR}×: ${percent(1 - better / J_CPU_FACTOR)} short)`}${undecided(j.cpuRange, jBase.cpuRange, J_CPU_FACTOR, better, J_CPU_FACTOR) ? NOISY : ''}`,
    });
  }
  verdicts.push(flatness(record, service, 'j1M', 'j10k', { million: itemsWithRareWord(millionSize), small: itemsWithRareWord(smallSize) }));
  verdicts.push(flatness(record, service, 'jr1M', 'jr10k', undefined));
  return verdicts;
}

/**
 * A text search's CPU per request at a million products against at 10,000
 * (issue 20: at most TEXT_FLAT_LIMIT×). `answered`: how many products each
 * answers when that grows with the collection (j), then also given per
 * product; undefined when both answer the same (jr).
 */
function flatness(record: RunRecord, service: string, millionId: string, smallId: string, answered: { million: number; small: number } | undefined): Verdict {
  const { small: smallSize, million: millionSize } = record.options.shopSizes;
  const answer = answered === undefined ? 'the same answer at both sizes' : `the answer grows with the collection: ${integer(answered.million)} products against ${integer(answered.small)}`;
  const goal = `${millionId} (issue 20): CPU per request at ${integer(millionSize)} products at most ${TEXT_FLAT_LIMIT}× that at ${integer(smallSize)} (${smallId}; ${answer})`;
  const [million, small] = [judged(record, millionId, service), judged(record, smallId, service)];
  if (typeof million === 'string' || typeof small === 'string' || million.cpuMicrosPerRequest === undefined || small.cpuMicrosPerRequest === undefined) {
    return { met: undefined, text: `${goal} (${[million, small].filter((x) => typeof x === 'string').join(', ') || 'no CPU figures'})` };
  }
  const r = million.cpuMicrosPerRequest / small.cpuMicrosPerRequest;
  const perProduct =
    answered === undefined || answered.million === 0 || answered.small === 0
      ? ''
      : `; per product answered ${fixed(million.cpuMicrosPerRequest / answered.million, 2)} vs ${fixed(small.cpuMicrosPerRequest / answered.small, 2)} µs = ${ratio(million.cpuMicrosPerRequest / answered.million / (small.cpuMicrosPerRequest / answered.small))}`;
  return {
    met: r <= TEXT_FLAT_LIMIT,
    text: `${goal}: ${fixed(million.cpuMicrosPerRequest, 1)} vs ${fixed(small.cpuMicrosPerRequest, 1)} µs = ${ratio(r)}${r <= TEXT_FLAT_LIMIT ? '' : ` (${percent(r / TEXT_FLAT_LIMIT - 1)} over)`}${undecided(small.cpuRange, million.cpuRange, TEXT_FLAT_LIMIT, r, TEXT_FLAT_LIMIT) ? NOISY : ''}${perProduct}`,
  };
}

/** The marketplace's targets, or the line saying they were not run. */
export function searchTargetsSection(record: RunRecord): string {
  const lines = ['## Targets (Marketplace part 1, and issue 20: the text index)', ''];
  if (searchScenarios(record).length === 0) {
    lines.push(verdictLine({ met: undefined, text: 'the search targets: not run (a run without the marketplace scenarios or servers)' }), '');
    return lines.join('\n');
  }
  if (record.options.smoke) lines.push('_Smoke run: the sizes are small and a few hundred requests too few to judge; these lines only show that the evaluation works._', '');
  const services = record.serverNames.filter((name) => record.cases.some((c) => c.server.name === name && c.server.role === 'service' && c.server.family === 'marketplace'));
  if (services.length === 0) lines.push(verdictLine({ met: undefined, text: 'the search targets: no marketplace service in this run (only its peer)' }), '');
  for (const service of services) {
    lines.push(`### ${service}`, '', ...searchVerdicts(record, service).map((verdict) => (typeof verdict === 'string' ? verdict : verdictLine(verdict))), '');
  }
  return lines.join('\n');
}
