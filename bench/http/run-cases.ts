/**
 * The comparison's run loop: each scenario on each of its servers, round
 * after round (the servers taking turns in a rotating order, a quiet moment
 * waited for before each), then the scaling run at each size; every round's
 * measurement and the case's seeding and memory gathered into its row.
 */
import { measure, type LoadSettings } from '../harness/load.js';
import type { Measurement } from '../harness/measurement.js';
import { QUIET_CORES, processMemory, waitForQuiet, type ProcessMemory } from '../harness/proc-stats.js';
import { seedProducts, type SeedReport } from '../harness/seed.js';
import type { ServerDefinition } from '../harness/servers.js';
import { measureWithReadProbe } from '../checkout/read-probe.js';
import type { BenchOptions } from './options.js';
import { holdsFor, prepare, productsHeld, type CheckoutExtras, type Holding } from './prepare.js';
import { combineRounds } from './rounds.js';
import type { CaseMemory, CaseResult, ReadP99, ScalingStep } from './run-record.js';
import type { Scenario } from './scenario-types.js';
import { SCALING_CASES, SEED_SIZE, seededRandom } from './scenarios.js';
import { withServer, type ServerLineup } from './server-lineup.js';

/** Every server is sent the same sequence of random choices. */
const RANDOM_SEED = 4;

export function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

function summary(m: Measurement): string {
  const notes = [...m.problems, ...m.warnings];
  const flag = notes.length === 0 ? '' : `  !! ${notes.join('; ')}`;
  const cpu = m.cpuMicrosPerRequest === undefined ? '' : `, ${m.cpuMicrosPerRequest.toFixed(1)} µs CPU/req`;
  return `${Math.round(m.requestsPerSecond).toLocaleString('en')} req/s, p99 ${m.p99Ms.toFixed(2)} ms${cpu}${flag}`;
}

export type Lineup = ServerLineup<Holding>;

/** Waits (bounded) for other work on the machine to pause, and says so when it did not. */
async function quietMoment(seconds: number): Promise<void> {
  if (seconds <= 0) return;
  const { waitedSeconds, busyCores } = await waitForQuiet(seconds);
  if (busyCores !== undefined && busyCores >= QUIET_CORES && waitedSeconds >= seconds) progress(`  (machine still busy after ${seconds} s: ${busyCores.toFixed(2)} cores used by other work)`);
}

/** How every case of the run is run: the load, where its servers come from, and how it is repeated. */
export interface CaseSetup {
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
export function scenarioSessions(scenario: Scenario, servers: readonly ServerDefinition[], rounds: number): Session[] {
  // kM's orders take minutes to place: placed once per server, measured in every round (each round adds its own).
  if ((scenario.family === 'marketplace' && scenario.seedOnce) || (scenario.family === 'checkout' && scenario.preplaced === 'many')) return servers.map((definition) => ({ definition, rounds: Array.from({ length: rounds }, (_, round) => round) }));
  return scenarioTurns(servers, rounds).map(({ round, definition }) => ({ definition, rounds: [round] }));
}

export function scenarioSize(scenario: Scenario, options: BenchOptions): number {
  if (scenario.family === 'marketplace') return options.shopSizes[scenario.collection];
  if (scenario.family === 'checkout') return scenario.preplaced === 'none' ? 0 : options.preplaced;
  return scenario.collection === 'seed' ? SEED_SIZE : options.largeSize;
}

/** Scenario k also measures a shopper's product read, alone and beside the checkout (checkout/read-probe.ts). */
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
export async function runScenario(scenario: Scenario, size: number, servers: readonly ServerDefinition[], setup: CaseSetup): Promise<CaseResult[]> {
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
export async function runScalingStep(definition: ServerDefinition, size: number, setup: CaseSetup): Promise<ScalingStep> {
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
