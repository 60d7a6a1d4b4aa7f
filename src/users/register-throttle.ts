import { createHash } from 'node:crypto';

/**
 * REGISTER_MAX_PER_HOUR: registrations from one address in the hour that
 * began with its first one, after which that address is refused (429) until
 * the hour is over. Each registration costs an scrypt hash, so this bounds
 * what one address can make the service hash through this door.
 *
 * Only registrations that go on to hash are counted (a body that fails
 * validation costs nothing and is not); one the hashing gate turns away is
 * given back. Memory is bounded whatever the input: an address is kept as a
 * SHA-256 digest (44 characters), and at most `maxTracked` addresses are
 * remembered, the oldest forgotten first.
 */
export class RegisterThrottle {
  readonly #counts = new Map<string, { count: number; readonly windowEnds: number }>();
  readonly #maxPerWindow: number;
  readonly #windowMs: number;
  readonly #maxTracked: number;
  readonly #now: () => number;

  constructor(options: { readonly maxPerHour: number; readonly windowMs?: number; readonly maxTracked?: number; readonly now?: () => number }) {
    this.#maxPerWindow = options.maxPerHour;
    this.#windowMs = options.windowMs ?? 60 * 60_000;
    this.#maxTracked = options.maxTracked ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  /** How many addresses are remembered now. */
  get size(): number {
    return this.#counts.size;
  }

  /**
   * Counts one registration for the address and answers 0, or answers the
   * seconds it must wait when its hour is used up (and counts nothing).
   * Checking and counting are one step, so concurrent requests cannot all
   * slip under the limit.
   */
  take(address: string): number {
    if (this.#maxPerWindow === 0) return 0;
    const key = addressKey(address);
    const now = this.#now();
    const entry = this.#counts.get(key);
    if (entry !== undefined && entry.windowEnds > now) {
      if (entry.count >= this.#maxPerWindow) return Math.max(1, Math.ceil((entry.windowEnds - now) / 1000));
      entry.count++;
      return 0;
    }
    this.#counts.delete(key);
    if (this.#counts.size >= this.#maxTracked) this.#counts.delete(this.#counts.keys().next().value as string);
    this.#counts.set(key, { count: 1, windowEnds: now + this.#windowMs });
    return 0;
  }

  /** Gives back a registration that did not hash after all (the hashing gate was full). */
  giveBack(address: string): void {
    if (this.#maxPerWindow === 0) return;
    const entry = this.#counts.get(addressKey(address));
    if (entry !== undefined && entry.count > 0) entry.count--;
  }
}

function addressKey(address: string): string {
  return createHash('sha256').update(address).digest('base64');
}
