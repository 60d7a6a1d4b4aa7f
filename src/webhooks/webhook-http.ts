import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Agent, buildConnector, Dispatcher } from 'undici';
import { literalAddress, refusedAddress, refusedKind } from './address-safety.js';

/**
 * What one attempt gave: the receiver's status, or why there was none (words
 * for `lastError`, never a secret), and whether that was before any
 * connection (`unreachable`: refused, no address, a refused address, no
 * connection within the time-out), which the next attempt would meet too.
 */
export type AttemptResult = { readonly kind: 'answered'; readonly status: number } | { readonly kind: 'failed'; readonly error: string; readonly unreachable: boolean };

/** Resolves a host name to its addresses (node:dns's lookup by default; tests give their own). */
export type WebhookResolver = (hostname: string) => Promise<readonly LookupAddress[]>;

export interface WebhookHttpOptions {
  readonly timeoutMs: number;
  /** Connections to one origin at most. */
  readonly connections: number;
  readonly allowPrivate: boolean;
  readonly resolve?: WebhookResolver;
}

/** At most this much of an answer's body is read; the connection is then closed rather than drained. */
const BODY_LIMIT = 64 * 1024;

const systemResolver: WebhookResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => (error === null ? resolve(addresses) : reject(error)));
  });

/** An address the safety rules refuse: the attempt fails without a connection. */
class RefusedAddress extends Error {
  override readonly name = 'RefusedAddress';
}

/**
 * A lookup for net.connect that refuses the connection when any address the
 * name resolves to is a refused one, and otherwise hands over the very
 * addresses it checked: the connection goes to what was checked, whatever
 * DNS says a moment later.
 */
function checkingLookup(resolve: WebhookResolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? found.filter((address) => address.family === options.family) : found;
        const refused = allowPrivate ? undefined : wanted.find((address) => refusedKind(address.address) !== undefined);
        if (refused !== undefined) callback(new RefusedAddress(`refused: ${hostname} resolves to ${refused.address}, ${refusedKind(refused.address) ?? ''}`), '', 0);
        else if (wanted.length === 0) callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        else if (options.all === true) callback(null, [...wanted]);
        else callback(null, (wanted[0] as LookupAddress).address, (wanted[0] as LookupAddress).family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

const UNREACHABLE_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** A failed attempt, from the error undici, net or dns gave: its words, and whether no connection was made. */
function failure(error: unknown, timeoutMs: number): AttemptResult {
  const failed = (words: string, unreachable: boolean): AttemptResult => ({ kind: 'failed', error: words.slice(0, 300), unreachable });
  const { name, code, message, cause } = (error ?? {}) as { name?: string; code?: string; message?: string; cause?: unknown };
  if (error instanceof RefusedAddress) return failed(error.message, true);
  if (cause instanceof RefusedAddress) return failed(cause.message, true);
  const unreachable = code !== undefined && UNREACHABLE_CODES.has(code);
  if (code === 'ECONNREFUSED') return failed('connection refused', true);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return failed(`the host name did not resolve (${code})`, true);
  if (name === 'TimeoutError' || name === 'AbortError' || (code?.startsWith('UND_ERR_') === true && code.includes('TIMEOUT'))) return failed(`no answer within ${timeoutMs / 1000} s`, unreachable);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return failed('the connection was closed before an answer', false);
  if (cause !== undefined) {
    const inner = failure(cause, timeoutMs);
    return failed(`${code ?? name ?? 'error'}: ${message ?? 'unknown'} (${inner.kind === 'failed' ? inner.error : ''})`, unreachable || (inner.kind === 'failed' && inner.unreachable));
  }
  return failed(`${code ?? name ?? 'error'}: ${message ?? 'unknown'}`, unreachable);
}

/**
 * One attempt's answer as undici hands it over: the status decides; the
 * body is read (64 KB at most, then the connection is cut rather than
 * drained) only so that the connection can serve the next attempt.
 * Connecting and waiting for the headers are each bounded by the time-out
 * (the Agent's); together they may pass it, and then the answer came too
 * late (a timer of its own per attempt cost more than the attempt's other
 * work).
 */
class AttemptHandler implements Dispatcher.DispatchHandler {
  readonly #started = performance.now();
  readonly #timeoutMs: number;
  readonly #resolve: (result: AttemptResult) => void;
  #status = 0;
  #read = 0;
  #done = false;

  constructor(timeoutMs: number, resolve: (result: AttemptResult) => void) {
    this.#timeoutMs = timeoutMs;
    this.#resolve = resolve;
  }

  /** Present, so undici takes this for a handler of its current interface. */
  onRequestStart(): void {
    // Nothing to do before the request leaves.
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.#status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#read += chunk.length;
    if (this.#read > BODY_LIMIT) {
      // Enough is known: the rest is not read.
      this.#answered();
      controller.abort(new Error('answer longer than 64 KB'));
    }
  }

  onResponseEnd(): void {
    this.#answered();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.#status !== 0) this.#answered();
    else if (!this.#done) {
      this.#done = true;
      this.#resolve(failure(error, this.#timeoutMs));
    }
  }

  #answered(): void {
    if (this.#done) return;
    this.#done = true;
    const late = performance.now() - this.#started > this.#timeoutMs;
    this.#resolve(late ? { kind: 'failed', error: `no answer within ${this.#timeoutMs / 1000} s`, unreachable: false } : { kind: 'answered', status: this.#status });
  }
}

/** The agent, and the connections it is still making (close() cuts them). */
interface HttpClient {
  readonly agent: Agent;
  readonly connecting: Set<Socket>;
}

/** undici's connector returns the socket it makes, though its type says void. */
type ReturningConnector = (options: buildConnector.Options, callback: buildConnector.Callback) => Socket;

/** An attempt that a close cut before it began. */
const CUT: AttemptResult = { kind: 'failed', error: 'the sender stopped before the attempt', unreachable: false };

/**
 * The sender's HTTP client: one undici Agent for every endpoint, at most
 * `connections` per origin, kept alive between attempts; no redirect is
 * followed (undici's Agent follows none unless told to); an answer counts
 * only if it came within the time-out, connecting included; at most 64 KB
 * of an answer is read (AttemptHandler). Host names are resolved and checked when a connection is made
 * (checkingLookup); an address written in the URL is checked here, as
 * net.connect looks nothing up for it. undici is loaded at the first attempt:
 * a service whose shop has no endpoint (and every test's) does not pay the
 * tenth of a second its loading costs.
 */
export class WebhookHttp {
  #client: HttpClient | undefined;
  #loading: Promise<HttpClient> | undefined;
  readonly #options: WebhookHttpOptions;
  /** Each endpoint's URL taken apart once. */
  readonly #targets = new Map<string, { readonly origin: string; readonly path: string; readonly refused: string | undefined }>();

  constructor(options: WebhookHttpOptions) {
    this.#options = options;
  }

  /** One POST of `body` with `headers` (a flat list: name, value, ...); resolves, never rejects. */
  attempt(url: string, headers: readonly string[], body: string): Promise<AttemptResult> {
    const target = this.#target(url);
    if (target.refused !== undefined) return Promise.resolve({ kind: 'failed', error: target.refused, unreachable: true });
    const agent = this.#client?.agent;
    if (agent === undefined) {
      return this.#load().then(
        // Closed while it loaded (a stop): the attempt is cut, as one under way would be, and no new client is made for it.
        (client) => (this.#client === client ? this.attempt(url, headers, body) : CUT),
        (error: unknown): AttemptResult => ({ kind: 'failed', error: `the HTTP client could not be loaded: ${String(error)}`, unreachable: false }),
      );
    }
    const { timeoutMs } = this.#options;
    return new Promise((resolve) => {
      const handler = new AttemptHandler(timeoutMs, resolve);
      try {
        // The dispatcher's handler rather than request(): no body stream or promise per answer, a fifth of an attempt's cost.
        agent.dispatch({ origin: target.origin, path: target.path, method: 'POST', headers: headers as string[], body }, handler);
      } catch (error) {
        handler.onResponseError(undefined, error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /**
   * Ends every connection; attempts under way fail. The next attempt makes a
   * new agent (a cluster's writer that stepped down and was promoted again).
   */
  async close(): Promise<void> {
    const loading = this.#loading;
    this.#loading = undefined;
    this.#client = undefined;
    const client = await loading;
    if (client === undefined) return;
    await client.agent.destroy();
    // undici's destroy leaves a connection still being made to its connect time-out (a receiver that never answers the SYN: 10 s).
    for (const socket of client.connecting) socket.destroy(new Error('the webhook sender stopped'));
  }

  #load(): Promise<HttpClient> {
    const loading = (this.#loading ??= import('undici').then(({ Agent, buildConnector: connectorFor }) => {
      const { timeoutMs, connections, allowPrivate, resolve = systemResolver } = this.#options;
      const connecting = new Set<Socket>();
      const connector = connectorFor({ timeout: timeoutMs, lookup: checkingLookup(resolve, allowPrivate) }) as ReturningConnector;
      const agent = new Agent({
        connections,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        connect: (options, callback) => {
          const socket = connector(options, (...result) => {
            connecting.delete(socket);
            callback(...result);
          });
          connecting.add(socket);
        },
      });
      const client = { agent, connecting };
      // Closed while it loaded: close() destroys it, and the next attempt loads another.
      if (this.#loading === loading) this.#client = client;
      return client;
    }));
    return loading;
  }

  #target(url: string): { readonly origin: string; readonly path: string; readonly refused: string | undefined } {
    let target = this.#targets.get(url);
    if (target !== undefined) return target;
    const parsed = new URL(url);
    const address = literalAddress(parsed.hostname);
    const refused = address === undefined || this.#options.allowPrivate ? undefined : refusedAddress(address);
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}`, refused: refused === undefined ? undefined : `refused: ${refused}` };
    // Endpoints are few (100 at most), but their URLs change: a bound keeps old ones from piling up.
    if (this.#targets.size >= 1000) this.#targets.clear();
    this.#targets.set(url, target);
    return target;
  }
}
