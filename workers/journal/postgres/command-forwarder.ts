/**
 * A follower's way to the writer (DATABASE_URL): the writes it is given go
 * to the writer's internal endpoint (its CLUSTER_URL, kept in the lease row)
 * as store commands, with the shared secret, and come back as results and
 * the journal sequence that holds them.
 *
 * The writer that answered last is where the next forward goes first; the
 * lease row is read again only when a forward does not reach it. Each
 * forward opens a connection of its own (no keep-alive), and sends its body
 * only once the writer's server has taken the request (Expect: 100-continue),
 * so that a failure tells "never delivered" from "delivered, then lost": a
 * refused connection, one reset or timed out before the writer took it, or
 * a writer that says it is not the writer (421), ran nothing, and the forward
 * may go to whoever holds the lease next, for a short while (a clean
 * hand-over takes some tens of milliseconds). A connection that breaks after
 * the writer took the request, or a writer that does not answer in time, may
 * have run the commands: that is WRITER_LOST, never retried here. An idle
 * keep-alive connection that the writer closes as a request goes out on it
 * would be the second kind, for a request that never arrived.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setTimeout as delay } from 'node:timers/promises';
import { FORWARD_PATH, SECRET_HEADER, type ClusterStoreError, type ForwardedAnswer, type ForwardedBatch } from '../../cluster-protocol.js';
import { STORE_PROTOCOL_VERSION, type StoreCommand, type StoreResult } from '../../store-protocol.js';
import type { LeaseHolder } from './writer-lease.js';

export type ForwardOutcome = ({ readonly kind: 'answered' } & ForwardedAnswer) | { readonly kind: 'unavailable'; readonly code: ClusterStoreError };

type Attempt = ({ readonly kind: 'answered' } & ForwardedAnswer) | { readonly kind: 'not-delivered' } | { readonly kind: 'refused'; readonly status: number } | { readonly kind: 'lost'; readonly reason: string };

/** How long a forward looks for a writer that takes it before it answers WRITER_UNAVAILABLE: a clean hand-over fits well within it. */
const FIND_WRITER_MS = 1500;
const RETRY_MS = 25;
/** A writer that has not connected within this is not there. */
const CONNECT_TIMEOUT_MS = 1000;

const RESULT_KINDS: ReadonlySet<string> = new Set(['ok', 'not-modified', 'empty', 'refused', 'account', 'replayed', 'charging', 'refreshed', 'order-events', 'unavailable', 'failed']);

export interface ForwarderParts {
  readonly secret: string;
  /** This instance's name in the lease: a lease it holds itself is not a writer to forward to. */
  readonly instance: string;
  /** The lease row as it is now; throws when PostgreSQL cannot say. */
  readonly writer: () => Promise<LeaseHolder | undefined>;
  /** How long a writer that took a forward may take to answer it (its lease: past it, it cannot append). */
  readonly answerTimeoutMs: number;
  /** The writer's endpoint refused this instance (401, 403, 409): a setting that differs, for the service to log. */
  readonly refused: (status: number) => void;
  /** A forward reached a writer and no answer came back (`reason`): its commands may have run. */
  readonly lost: (reason: string) => void;
}

/** The writer's answer, checked: it came over the network. */
function readAnswer(bytes: Buffer, count: number): ForwardedAnswer | undefined {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  const { seq, results } = (typeof value === 'object' && value !== null ? value : {}) as Partial<Record<keyof ForwardedAnswer, unknown>>;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || !Array.isArray(results) || results.length !== count) return undefined;
  const wellFormed = results.every((result: unknown) => typeof result === 'object' && result !== null && RESULT_KINDS.has(String((result as { kind?: unknown }).kind)));
  return wellFormed ? { seq, results: results as StoreResult[] } : undefined;
}

function judge(response: IncomingMessage, bytes: Buffer, count: number): Attempt {
  const status = response.statusCode ?? 0;
  if (status === 200) {
    const answer = readAnswer(bytes, count);
    return answer === undefined ? { kind: 'lost', reason: 'an answer that is not {seq, results}' } : { kind: 'answered', ...answer };
  }
  // 421: the instance at that address is not the writer (any more, or not yet); it ran nothing.
  if (status === 421) return { kind: 'not-delivered' };
  // Refusals that come before anything runs: the secret, the protocol, a busy store.
  if (status === 400 || status === 401 || status === 403 || status === 409 || status === 413 || status === 503) return { kind: 'refused', status };
  return { kind: 'lost', reason: `status ${status}` };
}

function post(url: string, body: string, secret: string, count: number, timeoutMs: number): Promise<Attempt> {
  return new Promise((resolve) => {
    const target = new URL(url + FORWARD_PATH);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let taken = false;
    const request = send(
      target,
      {
        method: 'POST',
        agent: false,
        headers: { [SECRET_HEADER]: `Bearer ${secret}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
        timeout: CONNECT_TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve(judge(response, Buffer.concat(chunks), count));
          // An answer before 100 Continue (a request the server could not take): its body is never sent.
          if (!taken) request.destroy();
        });
        response.on('error', (error) => resolve({ kind: 'lost', reason: `the answer broke off: ${error.message}` }));
        response.on('close', () => {
          if (!response.complete) resolve({ kind: 'lost', reason: 'the answer broke off' });
        });
      },
    );
    request.on('socket', (socket) => {
      // Connected: the writer has its lease's length to take the request and answer it.
      socket.once('connect', () => request.setTimeout(timeoutMs));
    });
    // The body goes only once the writer's server has taken the request (100 Continue): a connection
    // the kernel completed but the writer never took (in its accept queue as it stops listening, or
    // closed as idle by its drain) is reset before that, and ran nothing. From then on the writer may
    // be running the commands.
    request.on('continue', () => {
      taken = true;
      request.end(body);
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => resolve(taken ? { kind: 'lost', reason: `after the writer took it: ${error.message}` } : { kind: 'not-delivered' }));
    request.flushHeaders();
  });
}

export class CommandForwarder {
  readonly #parts: ForwarderParts;
  /** The term of a writer that took no forward for a whole FIND_WRITER_MS: tried once a forward, not waited for, until the lease changes hands. */
  #unreachableTerm = -1;
  /** Where the last forward was answered: the next goes there first, without asking PostgreSQL, until one does not reach it. */
  #lastWriterUrl: string | undefined;

  constructor(parts: ForwarderParts) {
    this.#parts = parts;
  }

  async forward(commands: readonly StoreCommand[]): Promise<ForwardOutcome> {
    const body = JSON.stringify({ protocol: STORE_PROTOCOL_VERSION, commands } satisfies ForwardedBatch);
    if (this.#lastWriterUrl !== undefined) {
      const attempt = await post(this.#lastWriterUrl, body, this.#parts.secret, commands.length, this.#parts.answerTimeoutMs);
      // Anything but an answer or a busy store, and the next forward asks the lease first (a writer paused or gone is not tried again).
      if (attempt.kind !== 'answered' && attempt.kind !== 'refused') this.#lastWriterUrl = undefined;
      // Not delivered (gone, or not the writer any more: 421): nothing ran, and the lease says who writes now.
      const outcome = this.#outcomeOf(attempt);
      if (outcome !== undefined) return outcome;
    }
    const until = performance.now() + FIND_WRITER_MS;
    for (;;) {
      const writer = await this.#parts.writer().catch(() => undefined);
      const usable = writer !== undefined && writer.url !== null && writer.expiresIn > 0 && writer.holder !== this.#parts.instance;
      if (usable) {
        const attempt = await post(writer.url, body, this.#parts.secret, commands.length, this.#parts.answerTimeoutMs);
        const outcome = this.#outcomeOf(attempt);
        if (attempt.kind === 'answered') {
          this.#unreachableTerm = -1;
          this.#lastWriterUrl = writer.url;
        }
        if (outcome !== undefined) return outcome;
      }
      // A writer known gone (killed: its lease runs out on its own) is not waited for at every write.
      // Nor is a free lease: this follower may be the one to take it, and its promotion waits for this batch (serially).
      if (performance.now() >= until || (writer !== undefined && (writer.term === this.#unreachableTerm || writer.expiresIn <= 0))) {
        if (writer !== undefined) this.#unreachableTerm = writer.term;
        return { kind: 'unavailable', code: 'WRITER_UNAVAILABLE' };
      }
      await delay(RETRY_MS);
    }
  }

  /** What a forward that reached a writer comes to; undefined when it was not delivered (another writer may take it). */
  #outcomeOf(attempt: Attempt): ForwardOutcome | undefined {
    switch (attempt.kind) {
      case 'answered':
        return attempt;
      case 'lost':
        this.#parts.lost(attempt.reason);
        return { kind: 'unavailable', code: 'WRITER_LOST' };
      case 'refused':
        if (attempt.status !== 503) this.#parts.refused(attempt.status);
        return { kind: 'unavailable', code: 'WRITER_UNAVAILABLE' };
      case 'not-delivered':
        return undefined;
    }
  }
}
