/**
 * What one measured window gives: the figures over the window, per request
 * kind and in all, and what makes it unfit to compare (problems) or slower
 * than it looks (warnings).
 */

export interface KindMeasurement {
  readonly label: string;
  /** The status every response of this kind should have. */
  readonly expected: number;
  readonly responses: number;
  /** Responses whose status was not the kind's, warm-up included. */
  readonly unexpected: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** What was wrong with the first response of this kind; undefined when it was right. */
  readonly firstProblem: string | undefined;
  readonly checked: boolean;
}

export interface Measurement {
  readonly seconds: number;
  readonly responses: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Server CPU (all threads) over the window per response; undefined without /proc. */
  readonly cpuMicrosPerRequest: number | undefined;
  /** Server CPU over the window as a share of one core: near 1 means the server was the bottleneck. */
  readonly serverBusy: number | undefined;
  /** This process's (the load generator's) CPU over the window as a share of one core. */
  readonly loadBusy: number;
  /** Everything else the machine ran over the window, in cores: other work disturbing the run. */
  readonly othersBusy: number | undefined;
  /** Connection errors and timeouts, warm-up included. */
  readonly errors: number;
  readonly timeouts: number;
  readonly unexpected: number;
  readonly kinds: Readonly<Record<string, KindMeasurement>>;
  /** What makes the row unfit to compare: a wrong first body, a kind never answered, unexpected statuses. */
  readonly problems: readonly string[];
  /**
   * What makes it slower than it looks, never faster: connection errors and
   * timeouts. A timed-out request is missing from the latencies, so p99 is
   * understated, and its work is in the CPU but not in the responses.
   */
  readonly warnings: readonly string[];
}

/** What makes a row unfit to compare, from its kinds. */
export function problemsOf(kinds: Readonly<Record<string, KindMeasurement>>): string[] {
  const problems: string[] = [];
  // A server slower than the window (or still busy with earlier work) has no figures at all.
  if (Object.values(kinds).every((kind) => kind.responses === 0)) problems.push('no response in the measured window');
  for (const kind of Object.values(kinds)) {
    if (!kind.checked) problems.push(`${kind.label}: no response at all`);
    if (kind.firstProblem !== undefined) problems.push(`first body wrong: ${kind.firstProblem}`);
    if (kind.unexpected > 0) {
      const seen = Object.entries(kind.statuses).filter(([status]) => Number(status) !== kind.expected).map(([status, count]) => `${count}×${status}`);
      problems.push(`${kind.label}: ${kind.unexpected} unexpected statuses (${seen.join(', ') || 'in warm-up'})`);
    }
  }
  return problems;
}

export function warningsOf(errors: number, timeouts: number): string[] {
  return errors === 0 ? [] : [`${errors} connection errors or timeouts (${timeouts} timeouts, warm-up included): p99 understated`];
}
