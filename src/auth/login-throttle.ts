import { createHash } from 'node:crypto';

/**
 * Slows password guessing on POST /login and Basic routes: after
 * `maxFailures` failed attempts for one username from one address within the
 * window, that pair is refused (429) until the window that began with its
 * first failure has passed. A success clears the pair.
 *
 * Memory is bounded whatever the input: a pair is kept as a SHA-256 digest
 * (44 characters, however long the username was), and at most `maxTracked`
 * pairs are remembered, the oldest forgotten first (~15 MB at the default).
 */
export class LoginThrottle {
  readonly #failures = new Map<string, { count: number; windowEnds: number }>();
  readonly #maxFailures: number;
  readonly #windowMs: number;
  readonly #maxTracked: number;
  readonly #now: () => number;

  constructor(options: { maxFailures: number; windowMs?: number; maxTracked?: number; now?: () => number }) {
    this.#maxFailures = options.maxFailures;
    this.#windowMs = options.windowMs ?? 15 * 60_000;
    this.#maxTracked = options.maxTracked ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  /** How many pairs are remembered now. */
  get size(): number {
    return this.#failures.size;
  }

  /** Seconds the pair must wait before trying again; 0 when it may try now. */
  retryAfterSeconds(address: string, username: string): number {
    if (this.#maxFailures === 0) return 0;
    const key = pairKey(address, username);
    const entry = this.#failures.get(key);
    if (entry === undefined) return 0;
    const remaining = entry.windowEnds - this.#now();
    if (remaining <= 0) {
      this.#failures.delete(key);
      return 0;
    }
    return entry.count >= this.#maxFailures ? Math.ceil(remaining / 1000) : 0;
  }

  recordFailure(address: string, username: string): void {
    if (this.#maxFailures === 0) return;
    const key = pairKey(address, username);
    const entry = this.#failures.get(key);
    if (entry !== undefined && entry.windowEnds > this.#now()) {
      entry.count++;
      return;
    }
    this.#failures.delete(key);
    if (this.#failures.size >= this.#maxTracked) this.#failures.delete(this.#failures.keys().next().value as string);
    this.#failures.set(key, { count: 1, windowEnds: this.#now() + this.#windowMs });
  }

  recordSuccess(address: string, username: string): void {
    if (this.#maxFailures === 0) return;
    this.#failures.delete(pairKey(address, username));
  }
}

function pairKey(address: string, username: string): string {
  return createHash('sha256').update(address).update('\u0000').update(username).digest('base64');
}
