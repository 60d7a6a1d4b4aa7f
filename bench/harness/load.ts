/**
 * One measurement: autocannon drives a load plan against a running server,
 * warm-up first, and the server's CPU time is read from /proc at the start
 * and end of the measured window. Latency, statuses and the first-body check
 * are kept per request kind (response-recorder.ts); what the figures are and
 * what makes them unfit to compare is in measurement.ts.
 */
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import type { LoadPlan } from './load-plan.js';
import { problemsOf, warningsOf, type KindMeasurement, type Measurement } from './measurement.js';
import { machineBusyMicroseconds, processCpuMicroseconds, untilIdle } from './proc-stats.js';
import { Recorder, toRequest } from './response-recorder.js';
import type { Headers } from './servers.js';

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
