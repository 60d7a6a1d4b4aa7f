/**
 * One measurement: autocannon drives a load plan against a running server,
 * warm-up first, and the server's CPU time is read from /proc at the start
 * and end of the measured window. Latency, statuses and the first-body check
 * are kept per request kind.
 */
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import type { LoadPlan, Outgoing, RequestKind, Step } from './load-plan.js';
import type { Headers } from './servers.js';
import { machineBusyMicroseconds, processCpuMicroseconds, untilIdle } from './proc-stats.js';

export interface LoadSettings {
  readonly connections: number;
  /** Seconds measured, unless `requests` is set. */
  readonly duration: number;
  /**
   * Requests measured instead of a timed window. A count ends once its
   * responses are in, however busy the machine: a stalled moment then slows
   * the case instead of leaving a request kind of a short window unanswered.
   */
  readonly requests: number | undefined;
  /** Seconds of warm-up before, on fresh connections; 0 for none. */
  readonly warmup: number;
  /**
   * Start the measured window only once the server has finished what it was
   * sent before (the warm-up's last requests, a previous round's): see
   * `untilIdle`. Off for issue 4's cases, whose method predates it.
   */
  readonly settle?: boolean;
  /** Requests per second over all connections (autocannon's overallRate); unset, as fast as the server answers. */
  readonly rate?: number;
}

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

/** Response times in milliseconds, bounded so a runaway run cannot eat the machine. */
class LatencyLog {
  static readonly #LIMIT = 20_000_000;
  #values = new Float64Array(65_536);
  #length = 0;

  add(ms: number): void {
    if (this.#length === this.#values.length) {
      if (this.#length >= LatencyLog.#LIMIT) return;
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#length++] = ms;
  }

  percentiles(...quantiles: number[]): number[] {
    if (this.#length === 0) return quantiles.map(() => Number.NaN);
    const sorted = this.#values.slice(0, this.#length).sort();
    return quantiles.map((q) => sorted[Math.min(this.#length - 1, Math.max(0, Math.ceil(q * this.#length) - 1))] as number);
  }
}

class KindRecord {
  responses = 0;
  unexpected = 0;
  readonly statuses = new Map<number, number>();
  readonly latency = new LatencyLog();
  checked = false;
  firstProblem: string | undefined;
  constructor(readonly spec: RequestKind) {}
}

function headerValue(headers: Record<string, string | string[]>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** Follows every response: its kind, its status, and the first body of each kind. */
class Recorder {
  readonly kinds = new Map<string, KindRecord>();
  readonly all = new LatencyLog();
  measuring = false;
  responses = 0;
  /** The kind of the response autocannon is about to report: set by onResponse, read by the 'response' event. */
  #current: KindRecord | undefined;

  constructor(kinds: LoadPlan['kinds']) {
    for (const [name, spec] of Object.entries(kinds)) this.kinds.set(name, new KindRecord(spec));
  }

  seen(sent: Outgoing, status: number, body: string, headers: Record<string, string | string[]>): void {
    const record = this.kinds.get(sent.kind);
    if (record === undefined) throw new Error(`request kind ${sent.kind} is not in the plan`);
    this.#current = record;
    if (!record.checked) {
      record.checked = true;
      record.firstProblem =
        status !== record.spec.status
          ? `${record.spec.label}: status ${status}, expected ${record.spec.status} (${body.slice(0, 80)})`
          : record.spec.check({ status, body, contentType: headerValue(headers, 'content-type'), header: (name) => headerValue(headers, name) }, sent);
      if (record.firstProblem !== undefined && !record.firstProblem.startsWith(record.spec.label)) {
        record.firstProblem = `${record.spec.label}: ${record.firstProblem}`;
      }
    }
    if (status !== record.spec.status) record.unexpected++;
    if (!this.measuring) return;
    record.responses++;
    record.statuses.set(status, (record.statuses.get(status) ?? 0) + 1);
  }

  timed(ms: number): void {
    this.responses++;
    this.all.add(ms);
    this.#current?.latency.add(ms);
    this.#current = undefined;
  }
}

/** Where a chosen request is kept in the connection's context until its response. */
const SENT = 'benchSent';

function headersFor(outgoing: Outgoing, credentials: Headers): Record<string, string> {
  const own = { ...credentials, ...outgoing.headers };
  return outgoing.body === undefined ? own : { ...own, 'content-type': 'application/json' };
}

/** A plan step as an autocannon request that reports to the recorder. */
function toRequest(step: Step, credentials: Headers, recorder: Recorder): autocannon.Request {
  if ('fixed' in step) {
    const { fixed, remember } = step;
    return {
      method: fixed.method,
      path: fixed.path,
      body: fixed.body,
      headers: headersFor(fixed, credentials),
      onResponse: (status, body, context, headers) => {
        recorder.seen(fixed, status, body, headers);
        remember?.(status, body, context);
      },
    };
  }
  const { choose, remember } = step;
  return {
    method: 'GET',
    path: '/',
    setupRequest: (request, context) => {
      const outgoing = choose(context);
      if (outgoing === undefined) return undefined;
      context[SENT] = outgoing;
      return { ...request, method: outgoing.method, path: outgoing.path, body: outgoing.body, headers: headersFor(outgoing, credentials) };
    },
    onResponse: (status, body, context, headers) => {
      recorder.seen(context[SENT] as Outgoing, status, body, headers);
      remember?.(status, body, context);
    },
  };
}

/** Rejects when a run overstays, so a hung server cannot hang the harness. */
export function withDeadline<T>(work: PromiseLike<T>, seconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish in ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([Promise.resolve(work), deadline]).finally(() => clearTimeout(timer));
}

/**
 * The longest wait for a server to finish a warm-up's last requests: 100
 * connections of a request that costs 0.1 s of CPU leave 10 s of work.
 */
const SETTLE_LIMIT_S = 60;

/**
 * When the window follows the warm-up at once, the requests the warm-up's
 * connections left behind are still being worked on: their CPU falls in the
 * window, their responses do not. That is noise for a request of 0.1 ms, and
 * for one of 43 ms × 100 connections most of a 5 s window. Settling
 * runs the warm-up alone, waits for the server to go idle, then measures.
 */
async function warmUpAndSettle(pid: number, options: autocannon.Options, settings: LoadSettings): Promise<{ errors: number; timeouts: number }> {
  let errors = 0;
  let timeouts = 0;
  if (settings.warmup > 0) {
    const warm = await withDeadline(autocannon({ ...options, duration: settings.warmup }), settings.warmup + 60, 'warm-up');
    errors = warm.errors;
    timeouts = warm.timeouts;
  }
  // A window measured anyway would put earlier work in its CPU figure.
  if (!(await untilIdle(pid, SETTLE_LIMIT_S))) throw new Error(`the server was still busy ${SETTLE_LIMIT_S} s after the warm-up`);
  return { errors, timeouts };
}

/**
 * One window of `plan` against the server. `beforeWindow` runs once the
 * warm-up is over and the server has settled (with `settle`), right before
 * the measured window: where a caller reads counters that must cover the
 * window alone. Without `settle` the warm-up is part of the run and it runs
 * before both.
 */
export async function measure(url: string, pid: number, credentials: Headers, plan: LoadPlan, settings: LoadSettings, beforeWindow?: () => Promise<void>): Promise<Measurement> {
  const recorder = new Recorder(plan.kinds);
  const options: autocannon.Options = {
    url,
    connections: settings.connections,
    pipelining: plan.pipelining ?? 1,
    requests: plan.steps.map((step) => toRequest(step, credentials, recorder)),
    // The end of the run is noticed at the next sample: keep that close. A
    // count of a few hundred requests lasts about as long as one 100 ms
    // sample, so it is watched ten times as often.
    sampleInt: settings.requests === undefined ? 100 : 10,
    // Seconds. A server overloaded by 100 connections of 1 MB lists can leave
    // a request waiting longer than autocannon's default 10: count it as slow
    // rather than lose it as an error.
    timeout: 30,
    ...(settings.rate === undefined ? {} : { overallRate: settings.rate }),
  };
  const settled = settings.settle === true ? await warmUpAndSettle(pid, options, settings) : undefined;
  await beforeWindow?.();
  const instance = autocannon({
    ...options,
    ...(settings.requests === undefined ? { duration: settings.duration } : { amount: settings.requests }),
    ...(settled === undefined && settings.warmup > 0 ? { warmup: { duration: settings.warmup } } : {}),
  });
  let cpuStart: number | undefined;
  let loadCpuStart = process.cpuUsage();
  let machineStart: number | undefined;
  let startedAt = 0;
  instance.on('start', () => {
    recorder.measuring = true;
    cpuStart = processCpuMicroseconds(pid);
    machineStart = machineBusyMicroseconds();
    loadCpuStart = process.cpuUsage();
    startedAt = performance.now();
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => recorder.timed(responseTime));

  // A count is given as long as a floor of 100 requests a second allows.
  const measured = settings.requests === undefined ? settings.duration : settings.requests / 100;
  const result = await withDeadline(instance, (settled === undefined ? settings.warmup : 0) + measured + 60, 'load run');
  const seconds = (performance.now() - startedAt) / 1000;
  const cpuEnd = processCpuMicroseconds(pid);
  const loadCpu = process.cpuUsage(loadCpuStart);
  const machineEnd = machineBusyMicroseconds();

  const kinds: Record<string, KindMeasurement> = {};
  for (const [name, record] of recorder.kinds) {
    const [p50, p99] = record.latency.percentiles(0.5, 0.99) as [number, number];
    kinds[name] = {
      label: record.spec.label,
      expected: record.spec.status,
      responses: record.responses,
      unexpected: record.unexpected,
      statuses: Object.fromEntries(record.statuses),
      p50Ms: p50,
      p99Ms: p99,
      firstProblem: record.firstProblem,
      checked: record.checked,
    };
  }
  const errors = result.errors + (settled?.errors ?? result.warmup?.errors ?? 0);
  const timeouts = result.timeouts + (settled?.timeouts ?? result.warmup?.timeouts ?? 0);
  const [p50, p99] = recorder.all.percentiles(0.5, 0.99) as [number, number];
  const serverCpu = cpuStart === undefined || cpuEnd === undefined ? undefined : cpuEnd - cpuStart;
  return {
    seconds,
    responses: recorder.responses,
    requestsPerSecond: recorder.responses / seconds,
    p50Ms: p50,
    p99Ms: p99,
    cpuMicrosPerRequest: serverCpu === undefined || recorder.responses === 0 ? undefined : serverCpu / recorder.responses,
    serverBusy: serverCpu === undefined ? undefined : serverCpu / (seconds * 1e6),
    loadBusy: (loadCpu.user + loadCpu.system) / (seconds * 1e6),
    othersBusy:
      machineStart === undefined || machineEnd === undefined || serverCpu === undefined
        ? undefined
        : Math.max(0, machineEnd - machineStart - serverCpu - loadCpu.user - loadCpu.system) / (seconds * 1e6),
    errors,
    timeouts,
    unexpected: Object.values(kinds).reduce((sum, kind) => sum + kind.unexpected, 0),
    kinds,
    problems: problemsOf(kinds),
    warnings: warningsOf(errors, timeouts),
  };
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
