/**
 * A case is measured in several rounds, the servers taking turns in a
 * rotating order, and each figure reported is the median of its rounds. On a
 * small shared machine one window can be slowed by something no counter here
 * sees (another tenant, a frequency change): a median of three shrugs off one
 * such window, and the range shows how much the rounds disagreed.
 */
import { problemsOf, warningsOf, type KindMeasurement, type Measurement } from '../harness/measurement.js';
import { fixed } from '../harness/report-format.js';

export interface RoundsMeasurement extends Measurement {
  readonly rounds: number;
  /** The lowest and highest CPU µs/request of the rounds. */
  readonly cpuRange: readonly [number, number] | undefined;
  /** The lowest and highest requests/s of the rounds. */
  readonly rpsRange: readonly [number, number];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function defined(values: readonly (number | undefined)[]): number[] | undefined {
  return values.every((value) => value !== undefined) ? (values as number[]) : undefined;
}

function medianOrUndefined(values: readonly (number | undefined)[]): number | undefined {
  const all = defined(values);
  return all === undefined ? undefined : median(all);
}

function combineKinds(rounds: readonly Measurement[]): Record<string, KindMeasurement> {
  const kinds: Record<string, KindMeasurement> = {};
  for (const name of Object.keys(rounds[0]?.kinds ?? {})) {
    const each = rounds.map((round) => round.kinds[name]).filter((kind): kind is KindMeasurement => kind !== undefined);
    const first = each[0] as KindMeasurement;
    const statuses: Record<string, number> = {};
    for (const kind of each) for (const [status, count] of Object.entries(kind.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
    kinds[name] = {
      label: first.label,
      expected: first.expected,
      responses: each.reduce((sum, kind) => sum + kind.responses, 0),
      unexpected: each.reduce((sum, kind) => sum + kind.unexpected, 0),
      statuses,
      p50Ms: median(each.map((kind) => kind.p50Ms)),
      p99Ms: median(each.map((kind) => kind.p99Ms)),
      firstProblem: each.find((kind) => kind.firstProblem !== undefined)?.firstProblem,
      checked: each.every((kind) => kind.checked),
    };
  }
  return kinds;
}

/** Medians of every figure; counts (responses, errors, statuses) are summed over the rounds. */
export function combineRounds(rounds: readonly Measurement[]): RoundsMeasurement {
  if (rounds.length === 0) throw new Error('no rounds to combine');
  const kinds = combineKinds(rounds);
  const errors = rounds.reduce((sum, round) => sum + round.errors, 0);
  const timeouts = rounds.reduce((sum, round) => sum + round.timeouts, 0);
  const cpu = defined(rounds.map((round) => round.cpuMicrosPerRequest));
  const rps = rounds.map((round) => round.requestsPerSecond);
  return {
    rounds: rounds.length,
    seconds: rounds.reduce((sum, round) => sum + round.seconds, 0),
    responses: rounds.reduce((sum, round) => sum + round.responses, 0),
    requestsPerSecond: median(rps),
    p50Ms: median(rounds.map((round) => round.p50Ms)),
    p99Ms: median(rounds.map((round) => round.p99Ms)),
    cpuMicrosPerRequest: cpu === undefined ? undefined : median(cpu),
    serverBusy: medianOrUndefined(rounds.map((round) => round.serverBusy)),
    loadBusy: median(rounds.map((round) => round.loadBusy)),
    othersBusy: medianOrUndefined(rounds.map((round) => round.othersBusy)),
    errors,
    timeouts,
    unexpected: rounds.reduce((sum, round) => sum + round.unexpected, 0),
    kinds,
    problems: problemsOf(kinds),
    warnings: warningsOf(errors, timeouts),
    cpuRange: cpu === undefined ? undefined : [Math.min(...cpu), Math.max(...cpu)],
    rpsRange: [Math.min(...rps), Math.max(...rps)],
  };
}

/** CPU µs/request, with the range of the rounds when there were several. */
export function cpuCell(m: RoundsMeasurement): string {
  const range = m.rounds > 1 && m.cpuRange !== undefined ? ` (${fixed(m.cpuRange[0], 1)}–${fixed(m.cpuRange[1], 1)})` : '';
  return `${fixed(m.cpuMicrosPerRequest, 1)}${range}`;
}
