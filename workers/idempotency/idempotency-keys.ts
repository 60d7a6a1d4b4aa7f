import type { IdempotencyClaim, RememberedAnswer } from './idempotency-protocol.js';

/** Keys are remembered this long after their first request (contract: 24 hours). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * What all remembered keys may hold at most, in characters of their keys,
 * scopes, fingerprints and answers (an order's answer can be kilobytes).
 * Time bounds memory only as far as clients are slow: a flood of new keys
 * within a day would grow it without end, so past this budget the oldest
 * keys are forgotten early. ~64 MB of one-byte strings at worst.
 */
export const MAX_REMEMBERED_CHARS = 64 * 1024 * 1024;

/** What a Map entry and its object cost beyond their strings, counted against the budget. */
const ENTRY_OVERHEAD_CHARS = 160;

interface Entry {
  readonly fingerprint: string;
  /** When the key was first claimed (ms): it expires TTL after that, answered or not. */
  readonly at: number;
  /** Undefined while the first request is still being answered. */
  answer: RememberedAnswer | undefined;
  size: number;
}

export type KeyVerdict =
  /** Not seen in this scope (or forgotten): the request runs. */
  | { readonly kind: 'new' }
  /** Seen with an equal body and answered: the same answer again. */
  | { readonly kind: 'replay'; readonly answer: RememberedAnswer }
  /** Seen with another body: 422. */
  | { readonly kind: 'reused' }
  /** Seen with an equal body, still being answered: 409. */
  | { readonly kind: 'in-progress' };

export interface IdempotencyLimits {
  readonly ttlMs: number;
  readonly maxChars: number;
}

const sizeOf = (id: string, fingerprint: string, answer: RememberedAnswer | undefined): number =>
  ENTRY_OVERHEAD_CHARS + id.length + fingerprint.length + (answer === undefined ? 0 : answer.kind === 'json' ? answer.body.length : answer.kind === 'error' ? answer.code.length + (answer.message?.length ?? 0) : 0);

/**
 * The keys the store remembers, in one Map in insertion order. Every key
 * lives the same time from its first claim, so insertion order is expiry
 * order: a sweep deletes from the front until it meets a live key, costing
 * the expired keys and one more, never a scan of the rest. An entry that
 * gets its answer is updated in place and keeps its place.
 */
export class IdempotencyKeys {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  readonly #limits: IdempotencyLimits;
  #chars = 0;

  constructor(now: () => number = Date.now, limits: IdempotencyLimits = { ttlMs: IDEMPOTENCY_KEY_TTL_MS, maxChars: MAX_REMEMBERED_CHARS }) {
    this.#now = now;
    this.#limits = limits;
  }

  /** How many keys are remembered (answered or in progress). */
  get size(): number {
    return this.#entries.size;
  }

  /** What a request carrying this claim is: new, a repeat to answer again, or a conflict. */
  judge(claim: IdempotencyClaim): KeyVerdict {
    this.#sweep();
    const entry = this.#entries.get(idOf(claim));
    if (entry === undefined) return { kind: 'new' };
    // Another body is the client's mistake whatever the first request's state: 422 before 409.
    if (entry.fingerprint !== claim.fingerprint) return { kind: 'reused' };
    return entry.answer === undefined ? { kind: 'in-progress' } : { kind: 'replay', answer: entry.answer };
  }

  /** Marks the key as being answered: a repeat meanwhile is 409. */
  hold(claim: IdempotencyClaim): void {
    this.#set(claim, undefined);
  }

  /** Remembers the answer under the key (made anew if it was forgotten meanwhile). */
  remember(claim: IdempotencyClaim, answer: RememberedAnswer): void {
    this.#set(claim, answer);
  }

  /** Forgets a key whose request changed nothing, so the client may send it again. */
  release(claim: IdempotencyClaim): void {
    const id = idOf(claim);
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    this.#chars -= entry.size;
    this.#entries.delete(id);
  }

  #set(claim: IdempotencyClaim, answer: RememberedAnswer | undefined): void {
    this.#sweep();
    const id = idOf(claim);
    const size = sizeOf(id, claim.fingerprint, answer);
    const entry = this.#entries.get(id);
    if (entry === undefined) {
      this.#entries.set(id, { fingerprint: claim.fingerprint, at: this.#now(), answer, size });
    } else {
      this.#chars -= entry.size;
      entry.answer = answer;
      entry.size = size;
    }
    this.#chars += size;
    this.#evictOverBudget();
  }

  #sweep(): void {
    const oldest = this.#now() - this.#limits.ttlMs;
    // Deleting the entry being visited is safe in a Map's iteration.
    for (const [id, entry] of this.#entries) {
      if (entry.at > oldest) return;
      this.#chars -= entry.size;
      this.#entries.delete(id);
    }
  }

  #evictOverBudget(): void {
    for (const [id, entry] of this.#entries) {
      if (this.#chars <= this.#limits.maxChars) return;
      this.#chars -= entry.size;
      this.#entries.delete(id);
    }
  }
}

/** One string per scope and key; the scope's length first, so no scope and key can pass for another pair. */
function idOf(claim: IdempotencyClaim): string {
  return `${claim.scope.length}:${claim.scope}${claim.key}`;
}
