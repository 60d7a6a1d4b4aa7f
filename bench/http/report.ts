/**
 * The run as markdown: what ran where, one row per case and server with its
 * ratios against the baseline and the ceiling, the mix's by-id latency, the
 * scaling run, the marketplace's search (search-report.ts), and each of the
 * issues' targets judged against the numbers.
 */
import { QUIET_CORES } from '../harness/proc-stats.js';
import { describePlacement } from '../harness/pinning.js';
import { duration, fixed, integer, mebibytes, percent, ratio, share, table } from '../harness/report-format.js';
import { checkoutSection } from './checkout-report.js';
import { cpuCell, type RoundsMeasurement } from './rounds.js';
import { find, valid, type RunRecord, type ScalingStep } from './run-record.js';
import type { Scenario } from './scenario-types.js';
import { searchSection, searchTargetsSection } from './search-report.js';
import { NOISE, NOISY, undecided, verdictLine, type Verdict } from './verdicts.js';

// ---- tables -----------------------------------------------------------------

/** Issue 4's scenarios (a–g); the marketplace's have their own section. */
function catalogueScenarios(record: RunRecord): Scenario[] {
  return record.scenarios.filter((scenario) => scenario.family === 'catalogue');
}

function scenarioTable(record: RunRecord): string {
  const { baseline: b, ceiling: c } = record;
  // Each ratio against the ceiling sits beside the same ratio against the
  // baseline, so a row reads "this far from Fastify, this far from bare Node".
  const header = [
    'case', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req (range)',
    `req/s ÷ ${b}`, `req/s ÷ ${c}`, `CPU ÷ ${b}`, `CPU ÷ ${c}`, `p99 ÷ ${b}`,
    'CPU busy: server / load / others', 'errors', 'unexpected', 'checks',
  ];
  const rows: string[][] = [];
  for (const scenario of catalogueScenarios(record)) {
    const base = valid(find(record, scenario.id, b));
    const ceiling = valid(find(record, scenario.id, c));
    for (const name of record.serverNames) {
      const result = find(record, scenario.id, name);
      if (result === undefined) continue;
      const label = `${scenario.id} ${scenario.name}: ${scenario.describe(result.size)}`;
      const m = result.measurement;
      if (m === undefined) {
        rows.push([label, name, ...header.slice(3).map(() => '–'), `FAILED: ${result.failure ?? 'no measurement'}`]);
        continue;
      }
      const ok = m.problems.length === 0;
      const compare = (mine: number | undefined, theirs: number | undefined): string =>
        ratio(ok && mine !== undefined && theirs !== undefined ? mine / theirs : undefined);
      rows.push([
        label,
        name,
        integer(m.requestsPerSecond),
        fixed(m.p50Ms, 2),
        // Timed-out requests are missing from the latencies: p99 is a floor.
        `${m.errors > 0 ? '≥ ' : ''}${fixed(m.p99Ms, 2)}`,
        cpuCell(m),
        compare(m.requestsPerSecond, base?.requestsPerSecond),
        compare(m.requestsPerSecond, ceiling?.requestsPerSecond),
        compare(m.cpuMicrosPerRequest, base?.cpuMicrosPerRequest),
        compare(m.cpuMicrosPerRequest, ceiling?.cpuMicrosPerRequest),
        compare(m.p99Ms, base?.p99Ms),
        `${share(m.serverBusy)} / ${share(m.loadBusy)} / ${share(m.othersBusy)}`,
        String(m.errors),
        String(m.unexpected),
        ok ? ['ok', ...m.warnings].join('; ') : `INVALID: ${[...m.problems, ...m.warnings].join('; ')}`,
      ]);
    }
  }
  return table(header, rows);
}

function focusTable(record: RunRecord, scenario: Scenario): string {
  const focus = scenario.focus as string;
  const baseKind = valid(find(record, scenario.id, record.baseline))?.kinds[focus];
  const rows: string[][] = [];
  for (const name of record.serverNames) {
    const m = find(record, scenario.id, name)?.measurement;
    if (m === undefined) continue;
    const kind = m.kinds[focus];
    const others = Object.entries(m.kinds).filter(([key]) => key !== focus);
    rows.push([
      name,
      integer(kind?.responses ?? Number.NaN),
      fixed(kind?.p50Ms, 2),
      fixed(kind?.p99Ms, 2),
      ratio(kind !== undefined && baseKind !== undefined && m.problems.length === 0 ? kind.p99Ms / baseKind.p99Ms : undefined),
      others.map(([, other]) => `${other.label} ${fixed(other.p99Ms, 2)} (${integer(other.responses)})`).join(', '),
    ]);
  }
  return table(['server', 'by-id responses', 'by-id p50 ms', 'by-id p99 ms', `by-id p99 ÷ ${record.baseline}`, 'other kinds: p99 ms (responses)'], rows);
}

function scalingTable(record: RunRecord): string {
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

// ---- targets ----------------------------------------------------------------

/** The spread of CPU µs/request between rounds, over every valid row: how far any one figure can be trusted. */
function spreadLine(record: RunRecord): string | undefined {
  const spreads = record.cases
    .map((c) => ({ c, m: c.measurement }))
    .filter(({ m }) => m !== undefined && m.rounds > 1 && m.cpuRange !== undefined && m.cpuMicrosPerRequest !== undefined && m.problems.length === 0)
    .map(({ c, m }) => ({ where: `${c.scenario.id} ${c.server.name}`, spread: ((m?.cpuRange?.[1] ?? 0) - (m?.cpuRange?.[0] ?? 0)) / (m?.cpuMicrosPerRequest ?? 1) }))
    .sort((a, b) => a.spread - b.spread);
  if (spreads.length === 0) return undefined;
  const middle = spreads[Math.floor(spreads.length / 2)];
  const widest = spreads[spreads.length - 1];
  return `Between rounds, CPU µs/req of one server in one case spread (highest − lowest, over the median) by ${percent(middle?.spread ?? 0)} in the middle row and by ${percent(widest?.spread ?? 0)} at most (${widest?.where ?? ''}): differences smaller than that are not a result.`;
}

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

function scalingVerdicts(record: RunRecord): Verdict[] {
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

function targetsSection(record: RunRecord): string {
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

// ---- the report -------------------------------------------------------------

/** `charts`: the report's lines that show the run's charts, by file name (bench/http/charts.ts). */
export function renderReport(record: RunRecord, charts: ReadonlyMap<string, string> = new Map()): string {
  const o = record.options;
  const sections = [
    `# Benchmark: catalogue against Fastify, Express and bare node:http`,
    '',
    `- Date: ${record.startedAt.toISOString().replace(/\.\d+Z$/, 'Z')}; the whole run took ${duration(record.seconds)}${o.smoke ? ' (smoke mode)' : ''}`,
    `- Runtime: Node ${record.machine.node}; ${Object.entries(record.versions).map(([name, version]) => `${name} ${version}`).join(', ')}`,
    `- Machine: ${record.machine.cpuModel}, ${record.machine.cores} cores, ${record.machine.memoryGiB} GiB, ${record.machine.kernel}`,
    `- Command: ${record.commands.map((command) => `\`${command}\``).join(', which runs ')}`,
    `- Options: ${o.connections} connections, pipelining 1, ${o.requests === undefined ? `${o.duration} s` : `${integer(o.requests)} requests`} measured after ${o.warmup} s warm-up per round, ${o.rounds} round${o.rounds === 1 ? '' : 's'} per server and case (servers taking turns in a rotating order; every figure is the median of the rounds, the CPU range is the lowest and highest round); up to ${o.quietWait} s wait before each round for the machine to be quiet (other work under ${QUIET_CORES} cores); large collection ${integer(o.largeSize)} products; scaling at ${o.scalingSizes.map(integer).join(', ') || 'none'}${record.scenarios.some((s) => s.family === 'marketplace') ? `; marketplace search at ${Object.values(o.shopSizes).map(integer).join(', ')} products` : ''}`,
    `- Pinning: ${describePlacement(record.placement)}`,
    `- Load average (1, 5, 15 min): ${record.loadAverage.start.map((v) => v.toFixed(2)).join(', ')} at the start, ${record.loadAverage.end.map((v) => v.toFixed(2)).join(', ')} at the end`,
    `- Method: for every case, round after round, the servers run back to back, each as a ${o.keepServers ? 'child process on a free port (this smoke run hands one on to the next case that needs it holding the same)' : 'fresh child process on a free port'}: seeded over HTTP (not measured), warmed up, measured, stopped. ` +
      'CPU µs/req is the server process\'s utime+stime (all threads) from /proc/PID/stat over the measured window divided by the responses in it. ' +
      'CPU busy is the share of one core the server and the load generator (autocannon, in the harness process) used over the window, and what everything else on the machine used: a server well under 100% was not the bottleneck (req/s then measures the load generator), and a large "others" means other work disturbed the case. ' +
      'The first response of every request kind is checked for the contract\'s shape and every status other than the expected one is counted: a row with any problem is INVALID and never compared. ' +
      `Ratios are against ${record.baseline}, and for req/s and CPU also against ${record.ceiling} (the same routes on bare node:http, no framework: the ceiling); for CPU and p99, lower is better.`,
    '',
  ];
  if (catalogueScenarios(record).length > 0) sections.push('## Scenarios', '', scenarioTable(record), '');
  const cpuChart = charts.get('cpu-per-request.svg');
  if (cpuChart !== undefined) sections.push(cpuChart, '');
  const spread = spreadLine(record);
  if (spread !== undefined) sections.push(spread, '');
  for (const scenario of record.scenarios.filter((s) => s.focus !== undefined)) {
    sections.push(`## ${scenario.id} ${scenario.name}: latency by request kind`, '', focusTable(record, scenario), '');
  }
  const search = searchSection(record);
  if (search !== undefined) sections.push(search);
  const searchChart = charts.get('search-cost.svg');
  if (search !== undefined && searchChart !== undefined) sections.push(searchChart, '');
  const checkout = checkoutSection(record);
  if (checkout !== undefined) sections.push(checkout);
  if (record.scaling.length > 0) {
    sections.push(`## Scaling (${record.scalingServer} only, ${o.keepServers ? 'the processes of the scenarios at the same size' : 'a fresh process per size'})`, '', scalingTable(record), '');
  }
  sections.push(targetsSection(record), searchTargetsSection(record));
  return sections.join('\n');
}

/** Problems that make the run fail: a wrong body anywhere, or any trouble in the service's own rows. */
export function runFailures(record: RunRecord): string[] {
  const failures: string[] = [];
  for (const result of record.cases) {
    const where = `${result.scenario.id} ${result.scenario.name} / ${result.server.name}`;
    if (result.measurement === undefined) {
      failures.push(`${where}: ${result.failure ?? 'no measurement'}`);
      continue;
    }
    // The service must be clean; a peer only has to be right (its own
    // trouble under load is its own, and shows in its row).
    const { problems: found, warnings } = result.measurement;
    const problems = result.server.role === 'service' ? [...found, ...warnings] : found.filter((p) => p.startsWith('first body') || p.includes('no response'));
    failures.push(...problems.map((p) => `${where}: ${p}`));
  }
  for (const step of record.scaling) {
    if (step.failure !== undefined) failures.push(`scaling ${step.size}: ${step.failure}`);
    for (const c of step.cases) failures.push(...[...c.measurement.problems, ...c.measurement.warnings].map((p) => `scaling ${step.size} ${c.name}: ${p}`));
  }
  return failures;
}
