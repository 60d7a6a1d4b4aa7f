/**
 * `npm run bench`: every scenario against every server, back to back, then
 * the service's scaling run; the report goes to stdout and, for a complete
 * run, to bench/RESULTS.md. Progress goes to stderr. Exits 1 when a server
 * answered a wrong body or the service answered an unexpected status, 2 on a
 * bad option.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { choosePlacement, describePlacement, reExecOnLoadCore, type Placement } from '../harness/pinning.js';
import { ServerLineup, freshStarts, type ServerTurn } from './server-lineup.js';
import { holdsFor, prepare, productsHeld, type CheckoutExtras, type Holding } from './prepare.js';
import { OptionError, USAGE, parseOptions, type BenchOptions } from './options.js';
import { SCALING_CASES, SCENARIOS, SEED_SIZE, seededRandom, serversFor } from './scenarios.js';
import type { Scenario } from './scenario-types.js';
import { BASELINE, BASELINE_DIST, CEILING, KNOWN_SERVERS, MARKETPLACE_BASELINE, SERVERS, selectServers, type RunningServer, type ServerDefinition } from '../harness/servers.js';
import { measure, type LoadSettings, type Measurement } from '../harness/load.js';
import { seedProducts, type SeedReport } from '../harness/seed.js';
import { measureWithReadProbe } from '../checkout/read-probe.js';
import { QUIET_CORES, describeMachine, processMemory, waitForQuiet, type ProcessMemory } from '../harness/proc-stats.js';
import { combineRounds } from './rounds.js';
import { renderReport, runFailures } from './report.js';
import type { CaseMemory, CaseResult, ReadP99, RunRecord, ScalingStep } from './run-record.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const CHARTS = fileURLToPath(new URL('../charts', import.meta.url));
/** Where RESULTS.md's appended sections begin (other benches' runs, dated): a complete run rewrites what is above it and keeps the rest. */
const APPENDED_MARKER = '<!-- Appended sections: other benches add theirs below; a complete run of bench/run.ts rewrites only what is above. -->';

function appendedSections(): string {
  let previous = '';
  try {
    previous = readFileSync(RESULTS, 'utf8');
  } catch {
    // No results yet: nothing to keep.
  }
  const at = previous.indexOf(APPENDED_MARKER);
  return at === -1 ? `\n${APPENDED_MARKER}\n` : `\n${previous.slice(at)}`;
}
/** Every server is sent the same sequence of random choices. */
const RANDOM_SEED = 4;
const SCALING_SERVER = 'catalogue';

function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

function summary(m: Measurement): string {
  const notes = [...m.problems, ...m.warnings];
  const flag = notes.length === 0 ? '' : `  !! ${notes.join('; ')}`;
  const cpu = m.cpuMicrosPerRequest === undefined ? '' : `, ${m.cpuMicrosPerRequest.toFixed(1)} µs CPU/req`;
  return `${Math.round(m.requestsPerSecond).toLocaleString('en')} req/s, p99 ${m.p99Ms.toFixed(2)} ms${cpu}${flag}`;
}

type Lineup = ServerLineup<Holding>;

/**
 * Runs `work` on a server for the turn (a kept one, with its holding, or a
 * fresh one), then stops it, unless the lineup keeps it for a later turn with
 * what `work` says it holds (smoke runs only).
 */
async function withServer(turn: ServerTurn, lineup: Lineup, work: (server: RunningServer, held: Holding | undefined) => Promise<Holding | undefined>): Promise<void> {
  const { server, held } = await lineup.take(turn);
  let kept = false;
  try {
    const holding = await work(server, held);
    kept = holding !== undefined && lineup.handOn(turn, server, holding);
  } finally {
    if (!kept) await server.stop();
  }
}

/** Waits (bounded) for other work on the machine to pause, and says so when it did not. */
async function quietMoment(seconds: number): Promise<void> {
  if (seconds <= 0) return;
  const { waitedSeconds, busyCores } = await waitForQuiet(seconds);
  if (busyCores !== undefined && busyCores >= QUIET_CORES && waitedSeconds >= seconds) progress(`  (machine still busy after ${seconds} s: ${busyCores.toFixed(2)} cores used by other work)`);
}

/** How every case of the run is run: the load, where its servers come from, and how it is repeated. */
interface CaseSetup {
  readonly settings: LoadSettings;
  readonly lineup: Lineup;
  /** Rounds per server. */
  readonly rounds: number;
  /** The longest wait for a quiet machine before each round. */
  readonly quietWait: number;
  readonly checkout: CheckoutExtras;
}

/** The servers in the order of a round: each round starts one later, so none is always first. */
function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = items.length === 0 ? 0 : by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

interface Turn {
  readonly round: number;
  readonly definition: ServerDefinition;
}

/** A scenario's turns in the order they run: round after round, the servers rotating. */
function scenarioTurns(servers: readonly ServerDefinition[], rounds: number): Turn[] {
  return Array.from({ length: rounds }, (_, round) => rotate(servers, round).map((definition) => ({ round, definition }))).flat();
}

/** One server process of a scenario: started, seeded, then measured in these rounds. */
interface Session {
  readonly definition: ServerDefinition;
  readonly rounds: readonly number[];
}

/**
 * A scenario's server processes in the order they run: a fresh one per turn,
 * or, for a scenario seeded once, one per server measured in every round.
 */
function scenarioSessions(scenario: Scenario, servers: readonly ServerDefinition[], rounds: number): Session[] {
  // kM's orders take minutes to place: placed once per server, measured in every round (each round adds its own).
  if ((scenario.family === 'marketplace' && scenario.seedOnce) || (scenario.family === 'checkout' && scenario.preplaced === 'many')) return servers.map((definition) => ({ definition, rounds: Array.from({ length: rounds }, (_, round) => round) }));
  return scenarioTurns(servers, rounds).map(({ round, definition }) => ({ definition, rounds: [round] }));
}

function scenarioSize(scenario: Scenario, options: BenchOptions): number {
  if (scenario.family === 'marketplace') return options.shopSizes[scenario.collection];
  if (scenario.family === 'checkout') return scenario.preplaced === 'none' ? 0 : options.preplaced;
  return scenario.collection === 'seed' ? SEED_SIZE : options.largeSize;
}

/** Scenario k also measures a shopper's product read, alone and beside the checkout (read-probe.ts). */
const probesReads = (scenario: Scenario): boolean => scenario.family === 'checkout' && scenario.preplaced === 'none';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function medianReadP99(rounds: readonly ReadP99[]): ReadP99 | undefined {
  return rounds.length === 0 ? undefined : { alone: median(rounds.map((r) => r.alone)), beside: median(rounds.map((r) => r.beside)), besideHalf: median(rounds.map((r) => r.besideHalf)) };
}

/** The memory of the session that ended the largest. */
function larger(kept: CaseMemory | undefined, next: CaseMemory): CaseMemory {
  return kept === undefined || (next.afterLoad?.rssBytes ?? 0) > (kept.afterLoad?.rssBytes ?? 0) ? next : kept;
}

/**
 * One scenario: every server, fresh for each session, round after round. A
 * server that fails once is dropped from the later rounds and its row says why.
 */
async function runScenario(scenario: Scenario, size: number, servers: readonly ServerDefinition[], setup: CaseSetup): Promise<CaseResult[]> {
  const rounds = new Map<string, Measurement[]>(servers.map((server) => [server.name, []]));
  const seeds = new Map<string, SeedReport[]>(servers.map((server) => [server.name, []]));
  const memory = new Map<string, CaseMemory>();
  const failures = new Map<string, string>();
  const readP99s = new Map<string, ReadP99[]>(servers.map((server) => [server.name, []]));
  // The marketplace's peer spends 3 ms of CPU on an h request at 100,000
  // products and 43 ms at a million: the window must not start while it is
  // still working through the warm-up's.
  const settings: LoadSettings = scenario.family === 'catalogue' ? setup.settings : { ...setup.settings, settle: true };
  for (const session of scenarioSessions(scenario, servers, setup.rounds)) {
    const { definition } = session;
    if (failures.has(definition.name)) continue;
    const label = (round: number): string => `${setup.rounds > 1 ? `${round + 1}/${setup.rounds} ` : ''}${definition.name}`.padEnd(21);
    // A fresh process per round waits for a quiet machine before it starts,
    // as it always did; one measured in several rounds waits before each.
    const several = session.rounds.length > 1;
    if (!several) await quietMoment(setup.quietWait);
    try {
      await withServer({ definition, holds: holdsFor(scenario, size, setup.checkout), keepsHolding: scenario.keepsHolding }, setup.lineup, async (server, held) => {
        const { seed, plan, holding } = await prepare(scenario, size, server, held, setup.settings.connections, setup.checkout);
        if (seed !== undefined) seeds.get(definition.name)?.push(seed);
        const afterSeed: ProcessMemory | undefined = processMemory(server.pid);
        for (const round of session.rounds) {
          if (several) await quietMoment(setup.quietWait);
          const load = (loadSettings: LoadSettings = settings): Promise<Measurement> => measure(server.url, server.pid, server.headers, plan(seededRandom(RANDOM_SEED)), loadSettings);
          let measurement: Measurement;
          if (probesReads(scenario)) {
            const probed = await measureWithReadProbe(server.url, load, settings);
            measurement = probed.measurement;
            readP99s.get(definition.name)?.push(probed.readP99);
          } else {
            measurement = await load();
          }
          rounds.get(definition.name)?.push(measurement);
          progress(`  ${label(round)} ${summary(measurement)}`);
        }
        memory.set(definition.name, larger(memory.get(definition.name), { afterSeed, afterLoad: processMemory(server.pid) }));
        return holding;
      });
    } catch (error) {
      failures.set(definition.name, (error as Error).message);
      progress(`  ${label(session.rounds[0] ?? 0)} FAILED: ${(error as Error).message}`);
    }
  }
  return servers.map((server) => {
    const failure = failures.get(server.name);
    const measured = rounds.get(server.name) ?? [];
    return {
      scenario,
      size,
      server,
      seeds: seeds.get(server.name) ?? [],
      memory: memory.get(server.name),
      measurement: failure === undefined && measured.length > 0 ? combineRounds(measured) : undefined,
      readP99: medianReadP99(readP99s.get(server.name) ?? []),
      failure: failure ?? (measured.length === 0 ? 'not measured' : undefined),
    };
  });
}

/** The scaling run at one size: one process, seeded once, each case measured round after round. */
async function runScalingStep(definition: ServerDefinition, size: number, setup: CaseSetup): Promise<ScalingStep> {
  const measured = new Map<string, Measurement[]>(SCALING_CASES.map((scalingCase) => [scalingCase.name, []]));
  let seed: ScalingStep['seed'];
  let memoryAfterSeed: ScalingStep['memoryAfterSeed'];
  let memoryAfterLoad: ScalingStep['memoryAfterLoad'];
  let failure: string | undefined;
  try {
    // A smoke run may hand over a catalogue process that holds `size` products already.
    await withServer({ definition, holds: productsHeld(size), keepsHolding: false }, setup.lineup, async (server, held) => {
      seed = held?.seed;
      if (held === undefined && size > SEED_SIZE) {
        progress(`  seeding ${size.toLocaleString('en')} products…`);
        seed = await seedProducts(server.url, server.headers, SEED_SIZE, size);
        progress(`  seeded in ${seed.seconds.toFixed(1)} s`);
      }
      memoryAfterSeed = processMemory(server.pid);
      for (let round = 0; round < setup.rounds; round++) {
        // POST+DELETE pairs cut off at the end of a run leave a few products
        // with ids above `size`, which the random by-id reads never ask for.
        for (const scalingCase of SCALING_CASES) {
          await quietMoment(setup.quietWait);
          const measurement = await measure(server.url, server.pid, server.headers, scalingCase.plan(size, seededRandom(RANDOM_SEED)), setup.settings);
          measured.get(scalingCase.name)?.push(measurement);
          progress(`  ${`${setup.rounds > 1 ? `${round + 1}/${setup.rounds} ` : ''}${scalingCase.name}`.padEnd(21)} ${summary(measurement)}`);
        }
      }
      memoryAfterLoad = processMemory(server.pid);
      return undefined;
    });
  } catch (error) {
    failure = (error as Error).message;
    progress(`  FAILED: ${failure}`);
  }
  const cases = [...measured].filter(([, rounds]) => rounds.length > 0).map(([name, rounds]) => ({ name, measurement: combineRounds(rounds) }));
  return { size, seed, memoryAfterSeed, cases, memoryAfterLoad, failure };
}

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
    writeFileSync(RESULTS, `${report}\n${appendedSections()}`);
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
