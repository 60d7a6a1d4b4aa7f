import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { literalAddress, refusedAddress, refusedKind } from './address-safety.js';

/** What one attempt gave: the receiver's status, or why there was none (words for `lastError`, never a secret). */
export type AttemptResult = { readonly kind: 'answered'; readonly status: number } | { readonly kind: 'failed'; readonly error: string };

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

/** The words for a failed attempt, from the error undici, net or dns gave. */
function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof RefusedAddress) return error.message;
  const { name, code, message, cause } = (error ?? {}) as { name?: string; code?: string; message?: string; cause?: unknown };
  if (cause instanceof RefusedAddress) return cause.message;
  if (name === 'TimeoutError' || name === 'AbortError' || (code?.startsWith('UND_ERR_') === true && code.includes('TIMEOUT'))) return `no answer within ${timeoutMs / 1000} s`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was closed before an answer';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host name did not resolve (${code})`;
  const nested = cause === undefined ? '' : ` (${describe(cause, timeoutMs)})`;
  return `${code ?? name ?? 'error'}: ${message ?? 'unknown'}${nested}`.slice(0, 300);
}

/**
 * The sender's HTTP client: one undici Agent for every endpoint, at most
 * `connections` per origin, kept alive between attempts; no redirect is
 * followed (undici's Agent follows none unless told to); each attempt ends
 * within the time-out, connecting included; at most 64 KB of an answer is
 * read. Host names are resolved and checked when a connection is made
 * (checkingLookup); an address written in the URL is checked here, as
 * net.connect looks nothing up for it.
 */
export class WebhookHttp {
  readonly #agent: Agent;
  readonly #options: WebhookHttpOptions;
  /** Each endpoint's URL taken apart once. */
  readonly #targets = new Map<string, { readonly origin: string; readonly path: string; readonly refused: string | undefined }>();

  constructor(options: WebhookHttpOptions) {
    this.#options = options;
    const { timeoutMs, connections, allowPrivate, resolve = systemResolver } = options;
    this.#agent = new Agent({
      connections,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: timeoutMs, lookup: checkingLookup(resolve, allowPrivate) },
    });
  }

  async attempt(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<AttemptResult> {
    const target = this.#target(url);
    if (target.refused !== undefined) return { kind: 'failed', error: target.refused };
    const { timeoutMs } = this.#options;
    try {
      const response = await this.#agent.request({ origin: target.origin, path: target.path, method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
      // The status decides; the body is read (64 KB at most) only so the connection can serve the next attempt.
      await response.body.dump({ limit: BODY_LIMIT }).catch(() => undefined);
      return { kind: 'answered', status: response.statusCode };
    } catch (error) {
      return { kind: 'failed', error: describe(error, timeoutMs) };
    }
  }

  /** Ends every connection; attempts under way fail. */
  close(): Promise<void> {
    return this.#agent.destroy();
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
