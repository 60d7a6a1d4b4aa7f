/**
 * Password hashing (scrypt, ~100 ms of a core on purpose) is the one thing a
 * client can make the service do at will by sending bogus credentials. The
 * gate runs at most `concurrency` hashes at once and lets at most
 * `queueLimit` more wait; past that it refuses at once, and the caller
 * answers 503 with Retry-After instead of queueing without bound.
 */
export class HashGate {
  readonly #concurrency: number;
  readonly #queueLimit: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(options: { readonly concurrency: number; readonly queueLimit: number }) {
    this.#concurrency = options.concurrency;
    this.#queueLimit = options.queueLimit;
  }

  /** Runs `hash` when a turn comes, or answers `busy` without running it. */
  async run<T>(hash: () => Promise<T>): Promise<T | 'busy'> {
    if (this.#running >= this.#concurrency) {
      if (this.#waiting.length >= this.#queueLimit) return 'busy';
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await hash();
    } finally {
      // Hand the turn straight to the next in line, or give it back.
      const next = this.#waiting.shift();
      if (next === undefined) this.#running--;
      else next();
    }
  }
}
