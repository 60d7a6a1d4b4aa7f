/**
 * What a run of the comparison leaves: every case's rounds, the scaling run
 * and the facts around them (the machine, the command, the pinning). The
 * report's sections and the charts read it; run.ts fills it.
 */
import type { Machine, ProcessMemory } from '../harness/proc-stats.js';
import type { Placement } from '../harness/pinning.js';
import type { SeedReport } from '../harness/seed.js';
import type { ServerDefinition } from '../harness/servers.js';
import type { BenchOptions } from './options.js';
import type { RoundsMeasurement } from './rounds.js';
import type { Scenario } from './scenario-types.js';

export interface CaseResult {
  readonly scenario: Scenario;
  readonly size: number;
  readonly server: ServerDefinition;
  /** Every seeding of the case's processes (none when it runs on a server's own products). */
  readonly seeds: readonly SeedReport[];
  /** The server's memory in the process that ended the largest; undefined without /proc or a process. */
  readonly memory: CaseMemory | undefined;
  /** The medians of the rounds. */
  readonly measurement: RoundsMeasurement | undefined;
  /** Why there is no measurement (the server did not start, seeding failed...). */
  readonly failure: string | undefined;
  /** Scenario k: a product read's p99 alone and beside the checkout, medians of the rounds (checkout/read-probe.ts). */
  readonly readP99: ReadP99 | undefined;
}

/** p99 in ms of `GET /products/1` at a low rate, alone, beside a load as fast as it goes, and beside it at half that rate. */
export interface ReadP99 {
  readonly alone: number;
  readonly beside: number;
  readonly besideHalf: number;
}

export interface CaseMemory {
  readonly afterSeed: ProcessMemory | undefined;
  readonly afterLoad: ProcessMemory | undefined;
}

export interface ScalingStep {
  readonly size: number;
  readonly seed: SeedReport | undefined;
  readonly memoryAfterSeed: ProcessMemory | undefined;
  readonly cases: readonly { readonly name: string; readonly measurement: RoundsMeasurement }[];
  readonly memoryAfterLoad: ProcessMemory | undefined;
  readonly failure: string | undefined;
}

export interface RunRecord {
  readonly startedAt: Date;
  readonly seconds: number;
  /** The command as typed, then the node command it ran. */
  readonly commands: readonly string[];
  readonly options: BenchOptions;
  readonly machine: Machine;
  readonly versions: Readonly<Record<string, string>>;
  /** Pinned, unpinned (`--unpinned`), or not pinned because it could not be. */
  readonly placement: Placement;
  /** os.loadavg() at the start and end: the machine may be shared. */
  readonly loadAverage: { readonly start: readonly number[]; readonly end: readonly number[] };
  readonly baseline: string;
  /** The framework-free peer: how far every row is from what Node itself allows. */
  readonly ceiling: string;
  /** The marketplace scenarios' baseline. */
  readonly marketplaceBaseline: string;
  readonly serverNames: readonly string[];
  readonly scenarios: readonly Scenario[];
  readonly cases: readonly CaseResult[];
  readonly scalingServer: string;
  readonly scaling: readonly ScalingStep[];
}

/** A measurement that may be compared: present and without problems. */
export function valid(result: CaseResult | undefined): RoundsMeasurement | undefined {
  const m = result?.measurement;
  return m !== undefined && m.problems.length === 0 ? m : undefined;
}

export function find(record: RunRecord, scenarioId: string, serverName: string): CaseResult | undefined {
  return record.cases.find((c) => c.scenario.id === scenarioId && c.server.name === serverName);
}
