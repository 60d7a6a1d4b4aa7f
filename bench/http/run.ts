/**
 * `npm run bench`: every scenario against every server, back to back, then
 * the service's scaling run (run-cases.ts); the report goes to stdout and,
 * for a complete run, to bench/RESULTS.md (results-file.ts). Progress goes to
 * stderr. Exits 1 when a server answered a wrong body or the service answered
 * an unexpected status, 2 on a bad option.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { choosePlacement, describePlacement, reExecOnLoadCore, type Placement } from '../harness/pinning.js';
import { describeMachine } from '../harness/proc-stats.js';
import { BASELINE, BASELINE_DIST, CEILING, KNOWN_SERVERS, MARKETPLACE_BASELINE, SERVERS, selectServers, type ServerDefinition } from '../harness/servers.js';
import { OptionError, USAGE, parseOptions, type BenchOptions } from './options.js';
import { holdsFor, productsHeld } from './prepare.js';
import { renderReport, runFailures } from './report.js';
import { CHARTS, RESULTS, writeResults } from './results-file.js';
import { progress, runScalingStep, runScenario, scenarioSessions, scenarioSize, type CaseSetup, type Lineup } from './run-cases.js';
import type { CaseResult, RunRecord, ScalingStep } from './run-record.js';
import { SCENARIOS, serversFor } from './scenarios.js';
import { ServerLineup, freshStarts } from './server-lineup.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCALING_SERVER = 'catalogue';

/** Resolved from this file, as the harness and the peers import them: bench/ or its compiled copy in build/bench/. */
function packageVersion(name: string): string {
  try {
    return (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The service's commit, so a result can be traced to the code it measured. */
function serviceRevision(): string {
  try {
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', timeout: 5_000 }).trim();
    // From the top of the work tree, wherever ROOT is (build/ for the compiled harness).
    const dirty = git('status', '--porcelain', '--', ':/src', ':/workers') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' (src/ or workers/ modified)' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** How this run was started: the npm script, when it was, and the node command it ran. */
function commandLines(args: readonly string[]): string[] {
  const direct = `node ${[...process.execArgv, relative(process.cwd(), process.argv[1] ?? 'bench/http/run.ts'), ...args].join(' ')}`;
  return process.env.npm_lifecycle_event === 'bench' ? [`npm run bench${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`, direct] : [direct];
}

async function main(args: readonly string[], options: BenchOptions, placement: Placement): Promise<number> {
  const startedAt = new Date();
  const loadAverageStart = os.loadavg();
  const started = performance.now();
  const servers = selectServers(options.serverFlags, options.servers, options.baselineDist);
  // A scenario runs when a server of the run answers its routes (--servers may leave a family out).
  const scenarios = SCENARIOS.filter((scenario) => (options.scenarios === undefined || options.scenarios.includes(scenario.id)) && serversFor(scenario, servers).length > 0);
  for (const id of options.scenarios ?? []) {
    if (!scenarios.some((scenario) => scenario.id === id)) {
      progress(`bench: --scenarios ${id}: no server of this run answers its routes`);
      return 2;
    }
  }
  const scalingServer = SERVERS.find((server) => server.name === SCALING_SERVER) as ServerDefinition;
  const scalingSizes = options.servers === undefined || options.servers.includes(SCALING_SERVER) ? options.scalingSizes : [];
  // Every server the run will start, in order, for the lineup to start each one ahead.
  const turns = [
    ...scenarios.flatMap((scenario) => scenarioSessions(scenario, serversFor(scenario, servers), options.rounds).map(({ definition }) => ({ definition, holds: holdsFor(scenario, scenarioSize(scenario, options), options), keepsHolding: scenario.keepsHolding }))),
    ...scalingSizes.map((size) => ({ definition: scalingServer, holds: productsHeld(size), keepsHolding: false })),
  ];
  const lineup: Lineup = new ServerLineup(placement, options.startAhead ? freshStarts(turns, options.keepServers) : [], options.keepServers);
  const setup: CaseSetup = {
    settings: { connections: options.connections, duration: options.duration, requests: options.requests, warmup: options.warmup },
    lineup,
    rounds: options.rounds,
    quietWait: options.quietWait,
    checkout: { customers: options.customers, checkoutProducts: options.checkoutProducts },
  };
  progress(`bench: ${servers.map((s) => s.name).join(', ')}; ${describePlacement(placement).replaceAll('**', '')}`);

  const cases: CaseResult[] = [];
  const scaling: ScalingStep[] = [];
  try {
    for (const scenario of scenarios) {
      const size = scenarioSize(scenario, options);
      progress(`${scenario.id} ${scenario.name}: ${scenario.describe(size)}`);
      cases.push(...(await runScenario(scenario, size, serversFor(scenario, servers), setup)));
    }
    for (const size of scalingSizes) {
      progress(`scaling: ${SCALING_SERVER} at ${size.toLocaleString('en')} products`);
      scaling.push(await runScalingStep(scalingServer, size, setup));
    }
  } finally {
    await lineup.close();
  }

  const record: RunRecord = {
    startedAt,
    seconds: (performance.now() - started) / 1000,
    commands: commandLines(args),
    options,
    machine: describeMachine(),
    versions: { catalogue: serviceRevision(), autocannon: packageVersion('autocannon'), fastify: packageVersion('fastify'), express: packageVersion('express') },
    placement,
    loadAverage: { start: loadAverageStart, end: os.loadavg() },
    baseline: BASELINE,
    ceiling: CEILING,
    marketplaceBaseline: MARKETPLACE_BASELINE,
    serverNames: servers.map((server) => server.name),
    scenarios,
    cases,
    scalingServer: SCALING_SERVER,
    scaling,
  };
  // Charts only beside the results they draw: a complete run's.
  // Imported only then: vega is a third of the harness's start-up.
  const charts = options.complete ? await import('./charts.js').then(({ figuresOf, writeCharts }) => writeCharts(figuresOf(record), CHARTS, 'charts')) : new Map<string, string>();
  const report = renderReport(record, charts);
  process.stdout.write(`${report}\n`);
  if (options.complete) {
    writeResults(report);
    progress(`wrote ${RESULTS} and ${[...charts.keys()].join(', ')} in ${CHARTS}`);
  } else {
    progress('RESULTS.md not written: only a complete run (pinned, no --smoke, all scenarios, servers and sizes) is.');
  }
  const failures = runFailures(record);
  for (const failure of failures) progress(`FAIL ${failure}`);
  return failures.length === 0 ? 0 : 1;
}

const args = process.argv.slice(2);
let options: BenchOptions;
try {
  options = parseOptions(args, {
    scenarios: SCENARIOS.map((s) => s.id),
    servers: KNOWN_SERVERS.map((s) => s.name),
    serverFlags: new Map(KNOWN_SERVERS.flatMap((s) => (s.flag === undefined ? [] : [[s.name, s.flag] as const]))),
    baselineFlag: BASELINE_DIST,
  });
} catch (error) {
  if (!(error instanceof OptionError)) throw error;
  if (error.message !== '') process.stderr.write(`bench: ${error.message}\n`);
  process.stderr.write(`${USAGE}\n`);
  process.exit(error.message === '' ? 0 : 2);
}
// Options first: --unpinned decides whether the harness moves to the load core.
const placement = choosePlacement(options.unpinned);
reExecOnLoadCore(placement);
process.exitCode = await main(args, options, placement);
