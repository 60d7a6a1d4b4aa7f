/**
 * Idempotency keys (contract section 7, "Payments"; order placement too):
 * what the front tells the store about a request that carries an
 * `Idempotency-Key`, and what the store remembers of its answer.
 */

/**
 * One request's key, as the front's route runner derived it. The front's
 * `src/http/idempotency-key.ts` declares the same shape (the front may not
 * import this module's values, and this thread never imports the front).
 */
export interface IdempotencyClaim {
  /** The client's Idempotency-Key header, 1 to 255 characters. */
  readonly key: string;
  /**
   * The method and the path with its ids resolved (`POST /users/7/orders/3/payments`,
   * `me` already the caller's id): a key names a request only within its scope,
   * and the path names the customer.
   */
  readonly scope: string;
  /**
   * A keyed hash of the body's canonical JSON (key order aside): equal bodies
   * have equal fingerprints, and the body itself (a card number) never
   * reaches the store.
   */
  readonly fingerprint: string;
}

/** An answer to write again, as the front first wrote it (an error's status and wording come from the front's tables). */
export type RememberedAnswer =
  | { readonly kind: 'json'; readonly status: number; readonly body: string }
  | { readonly kind: 'empty'; readonly status: number }
  | { readonly kind: 'error'; readonly code: string; readonly message?: string };

/**
 * Runs another store command under a key, in one step: a repeat of an
 * answered request is answered from memory (the command does not run
 * again); otherwise the command runs and its success is remembered. This is
 * what a route declaring `idempotency` with a store action sends.
 * `status` is the route's status on success, remembered with the body.
 */
export interface IdempotentRun<Inner> {
  readonly kind: 'idempotency.run';
  readonly claim: IdempotencyClaim;
  readonly status: 200 | 201 | 202 | 204;
  readonly command: Inner;
}

/** 422: the key was used in this scope with another body; 409: its first request is still being answered. */
export const IDEMPOTENCY_STORE_ERRORS = ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_PROGRESS'] as const;
export type IdempotencyStoreError = (typeof IDEMPOTENCY_STORE_ERRORS)[number];
