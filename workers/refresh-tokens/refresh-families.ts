import { ExpiryHeap } from './expiry-heap.js';
import type { RefreshHolder } from './refresh-protocol.js';

/**
 * Live families one holder (a username) may have: a 21st login ends the
 * holder's oldest family. Each device or app install logs in once and then
 * refreshes, so twenty is many devices; without a cap, a script logging in
 * in a loop would grow the store by a family a request for REFRESH_TTL.
 */
export const MAX_FAMILIES_PER_HOLDER = 20;

interface Family {
  readonly holder: RefreshHolder;
  /** The digest of the family's current token; every earlier one is spent. */
  token: string;
  /** When the current token expires (ms): REFRESH_TTL after it was issued. */
  expiresAt: number;
}

/**
 * The families as plain data (a snapshot's part), in the order they were
 * begun. The holders' lists and the expiry heap are rebuilt from them.
 */
export interface RefreshFamiliesState {
  /** The digests of the families' secrets. */
  readonly families: string[];
  readonly tokens: string[];
  readonly expiresAt: Float64Array;
  readonly usernames: string[];
  /** A customer's user id; 0 for an AUTH_USERS account (user ids start at 1). */
  readonly userIds: Float64Array;
}

export type RotateOutcome = { readonly kind: 'rotated'; readonly holder: RefreshHolder } | { readonly kind: 'unknown' } | { readonly kind: 'ended' };

/** Heap entries of ended families tolerated beyond the live ones before the heap is made again. */
const STALE_ENTRIES_KEPT = 1024;

const UNKNOWN: RotateOutcome = { kind: 'unknown' };
const ENDED: RotateOutcome = { kind: 'ended' };

/**
 * The refresh-token families: one per login, each holding only the digest of
 * its current token and when that expires. A token presented is current,
 * spent (the family's secret with another token's: a reuse) or unknown, and
 * a family needs no list of its spent tokens to tell which.
 *
 * Memory follows the live families: a family ends when it is revoked, reused
 * or evicted (dropped at once: its tokens are then unknown, refused with the
 * same answer, so nothing is kept to say why), and one whose token expired
 * is dropped by the next login's sweep, which takes only the families that
 * fall due (a heap by expiry, at most twice as many entries as live
 * families, and a thousand). Between logins nothing new is begun, so
 * nothing grows.
 */
export class RefreshFamilies {
  /** By the digest of the family's secret, in the order begun. */
  readonly #families = new Map<string, Family>();
  /** Each holder's families, oldest first (at most MAX_FAMILIES_PER_HOLDER). */
  readonly #byHolder = new Map<string, string[]>();
  #expiry = new ExpiryHeap();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  get size(): number {
    return this.#families.size;
  }

  /** Entries in the expiry heap, live families' and ended ones' (what the memory bound is about). */
  get expiryEntries(): number {
    return this.#expiry.size;
  }

  /** Whether a family is live: the journal records a rotate or revoke only for one (the others change nothing). */
  has(family: string): boolean {
    return this.#families.has(family);
  }

  begin(family: string, token: string, holder: RefreshHolder, ttlMs: number): void {
    const now = this.#now();
    this.#dropExpired(now);
    // 256 random bits: two logins drawing the same secret would be a broken random source.
    if (this.#families.has(family)) throw new Error('a refresh family was begun twice');
    const held = this.#byHolder.get(holder.username);
    if (held !== undefined && held.length >= MAX_FAMILIES_PER_HOLDER) this.#drop(held[0] as string);
    this.#add(family, { holder, token, expiresAt: now + ttlMs });
  }

  rotate(family: string, token: string, next: string, ttlMs: number): RotateOutcome {
    const found = this.#families.get(family);
    if (found === undefined) return UNKNOWN;
    const now = this.#now();
    // Digests of 256-bit secrets: comparing them in variable time leaks nothing an attacker can steer.
    if (found.expiresAt <= now || found.token !== token) {
      this.#drop(family);
      return ENDED;
    }
    found.token = next;
    const expiresAt = now + ttlMs;
    // Later (the same REFRESH_TTL): its heap entry stays, and is put back at the new time when it falls due.
    // Earlier (REFRESH_TTL shortened since the last start): an entry at the new time, or the sweep would find it late.
    if (expiresAt < found.expiresAt) this.#expiry.push(family, expiresAt);
    found.expiresAt = expiresAt;
    return { kind: 'rotated', holder: found.holder };
  }

  /** Ends a family; false when there was none. */
  revoke(family: string): boolean {
    if (!this.#families.has(family)) return false;
    this.#drop(family);
    return true;
  }

  captureState(): RefreshFamiliesState {
    const families: string[] = [];
    const tokens: string[] = [];
    const usernames: string[] = [];
    const expiresAt = new Float64Array(this.#families.size);
    const userIds = new Float64Array(this.#families.size);
    for (const [family, { holder, token, expiresAt: due }] of this.#families) {
      expiresAt[families.length] = due;
      userIds[families.length] = holder.role === 'customer' ? holder.userId : 0;
      families.push(family);
      tokens.push(token);
      usernames.push(holder.username);
    }
    return { families, tokens, expiresAt, usernames, userIds };
  }

  /** Into families that hold nothing. */
  restoreState(state: RefreshFamiliesState): void {
    if (this.#families.size > 0) throw new Error('refresh families are restored only when made empty');
    state.families.forEach((family, index) => {
      const username = state.usernames[index] as string;
      const userId = state.userIds[index] as number;
      const holder: RefreshHolder = userId === 0 ? { username, role: 'admin' } : { username, role: 'customer', userId };
      this.#add(family, { holder, token: state.tokens[index] as string, expiresAt: state.expiresAt[index] as number });
    });
  }

  #add(family: string, entry: Family): void {
    this.#families.set(family, entry);
    const held = this.#byHolder.get(entry.holder.username);
    if (held === undefined) this.#byHolder.set(entry.holder.username, [family]);
    else held.push(family);
    this.#expiry.push(family, entry.expiresAt);
  }

  #drop(family: string): void {
    const entry = this.#families.get(family);
    if (entry === undefined) return;
    this.#families.delete(family);
    const held = this.#byHolder.get(entry.holder.username) ?? [];
    const at = held.indexOf(family);
    if (at !== -1) held.splice(at, 1);
    if (held.length === 0) this.#byHolder.delete(entry.holder.username);
    // Its heap entry stays until it falls due, and then finds no family. So that logins and logouts
    // in a loop do not pile such entries up for REFRESH_TTL, the heap is made again from the live
    // families once most of it is stale: amortised, a few entries' work a drop.
    if (this.#expiry.size > 2 * this.#families.size + STALE_ENTRIES_KEPT) {
      this.#expiry = new ExpiryHeap();
      for (const [live, { expiresAt }] of this.#families) this.#expiry.push(live, expiresAt);
    }
  }

  /**
   * Drops every family whose token expired by `now`. Every family has a heap
   * entry no later than its expiry; one earlier than it (a refresh moved the
   * expiry later) goes back in at the family's own time. So afterwards
   * exactly the families with `expiresAt > now` remain, whatever entries the
   * heap held (a restore's heap holds one per family, at its expiry).
   */
  #dropExpired(now: number): void {
    for (let family = this.#expiry.takeDue(now); family !== undefined; family = this.#expiry.takeDue(now)) {
      const entry = this.#families.get(family);
      if (entry === undefined) continue;
      if (entry.expiresAt > now) this.#expiry.push(family, entry.expiresAt);
      else this.#drop(family);
    }
  }
}
