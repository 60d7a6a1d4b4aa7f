/**
 * The run as markdown: what ran where and how, then its parts in order: the
 * catalogue's table (catalogue-tables.ts), the mix's latency by request kind,
 * the marketplace's search (search-report.ts), the checkout
 * (checkout-report.ts), the scaling run (scaling-report.ts), and each issue's
 * targets judged against the numbers (catalogue-targets.ts, search-report.ts).
 */
import { QUIET_CORES } from '../harness/proc-stats.js';
import { describePlacement } from '../harness/pinning.js';
import { duration, integer, percent } from '../harness/report-format.js';
import { catalogueScenarios, focusTable, scenarioTable } from './catalogue-tables.js';
import { targetsSection } from './catalogue-targets.js';
import { checkoutSection } from './checkout-report.js';
import type { RunRecord } from './run-record.js';
import { scalingTable } from './scaling-report.js';
import { searchSection, searchTargetsSection } from './search-report.js';

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
