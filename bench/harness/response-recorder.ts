/**
 * Follows every response of a load plan: which kind it is, its status and
 * latency, and whether the first body of each kind was right. A plan's steps
 * become autocannon requests that report here.
 */
import type autocannon from 'autocannon';
import type { LoadPlan, Outgoing, RequestKind, Step } from './load-plan.js';
import type { Headers } from './servers.js';

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
export class Recorder {
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
export function toRequest(step: Step, credentials: Headers, recorder: Recorder): autocannon.Request {
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
