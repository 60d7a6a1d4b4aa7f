import { createHash } from 'node:crypto';
import { ensureLength } from '../growable-column.js';
import type { IdempotencyClaim, RememberedAnswer } from './idempotency-protocol.js';

/** Keys are remembered this long after their first request (contract: 24 hours). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * What all remembered keys may hold at most, counted in bytes (ENTRY_BYTES a
 * key, plus the characters of an answer kept as text). Time bounds memory
 * only as far as clients are slow: a flood of new keys within a day would
 * grow it without end, so past this budget the oldest keys are forgotten
 * early. A million keys whose answers are rebuilt (payments) fit.
 */
export const MAX_REMEMBERED_CHARS = 128 * 1024 * 1024;

/** What one key costs (its digest string, the Map's entry, its columns), measured by bench/checkout/order-memory-micro.ts. */
const ENTRY_BYTES = 100;

/** The sources of rebuilt answers there are: a snapshot names a key's source by this, and a restore is handed one of each. */
export type AnswerSourceName = 'payment';

/**
 * An answer the store can make again from its own data (a payment's 201 from
 * the payment), kept as a number rather than as text: the source is one
 * object shared by all its keys.
 */
export interface AnswerSource {
  readonly name: AnswerSourceName;
  answer(ref: number): RememberedAnswer;
}

/** A remembered key's answer in a snapshot: as it was sent, still being made, or the number its source makes it again from. */
export type KeptAnswer = RememberedAnswer | { readonly kind: 'in-progress' } | { readonly kind: 'rebuilt'; readonly source: AnswerSourceName; readonly ref: number };

/**
 * The remembered keys as plain data (a snapshot's part): the live ones in
 * the order of their first claim, which is their expiry order. The slots of
 * keys released or expired are not kept, nor is the queue's position (both
 * only say where in the columns the live keys sit); the Map from digest to
 * slot, each key's size and the total are computed again from the answers.
 */
export interface IdempotencyKeysState {
  /** The digests of scope and key (digestOf). */
  readonly ids: string[];
  /** When each key was first claimed (ms). */
  readonly at: Float64Array;
  readonly fingerprints: Float64Array;
  readonly answers: KeptAnswer[];
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

/** A claim as the store keeps it: its scope and key as a digest, its body's fingerprint as a number. */
interface ClaimDigest {
  readonly id: string;
  readonly fingerprint: number;
}

/**
 * One string per scope and key: 128 bits of SHA-256 over the scope's length,
 * the scope and the key, so no scope and key can pass for another pair and a
 * 255-character key costs what a short one does.
 */
function digestOf(claim: IdempotencyClaim): ClaimDigest {
  const id = createHash('sha256').update(`${claim.scope.length}:${claim.scope}${claim.key}`).digest().toString('base64url', 0, 16);
  // 48 bits: the fingerprint is only ever compared with the one first sent under the same key.
  const fingerprint = createHash('sha256').update(claim.fingerprint).digest().readUIntBE(0, 6);
  return { id, fingerprint };
}

/** What an answer kept as text adds to a key's cost. */
function charsOf(answer: RememberedAnswer): number {
  return answer.kind === 'json' ? answer.body.length : answer.kind === 'error' ? answer.code.length + (answer.message?.length ?? 0) : 0;
}

/**
 * The keys the store remembers. Every key lives the same time from its first
 * claim, so the order keys are first claimed in is their expiry order: slots
 * in a queue of columns (time, fingerprint, size, answer), a Map from the
 * digest to the slot. A sweep takes slots from the front until it meets a
 * live key, costing the expired keys and one more; a key released early
 * leaves an empty slot that the front skips. An entry that gets its answer
 * is updated in place and keeps its place.
 */
export class IdempotencyKeys {
  readonly #slots = new Map<string, number>();
  /** The slot of index 0 in the columns; slots below it are gone. */
  #base = 0;
  #head = 0;
  #tail = 0;
  #ids: (string | undefined)[] = [];
  #answers: (RememberedAnswer | AnswerSource | undefined)[] = [];
  #at = new Float64Array(0);
  #fingerprints = new Float64Array(0);
  #refs = new Float64Array(0);
  #sizes = new Float64Array(0);
  #chars = 0;
  #last: { readonly claim: IdempotencyClaim; readonly digest: ClaimDigest } | undefined;
  readonly #now: () => number;
  readonly #limits: IdempotencyLimits;

  constructor(now: () => number = Date.now, limits: IdempotencyLimits = { ttlMs: IDEMPOTENCY_KEY_TTL_MS, maxChars: MAX_REMEMBERED_CHARS }) {
    this.#now = now;
    this.#limits = limits;
  }

  /** How many keys are remembered (answered or in progress), those past their time not counted though not yet swept. */
  get size(): number {
    let expired = 0;
    for (let index = this.#head - this.#base; index < this.#tail - this.#base && this.#expired(index); index++) {
      if (this.#ids[index] !== undefined) expired++;
    }
    return this.#slots.size - expired;
  }

  /**
   * What a request carrying this claim is: new, a repeat to answer again, or
   * a conflict. It changes nothing: a key past its time is new here and
   * swept out of the columns by the next write. So a repeat answered from
   * memory changes no state, and the journal need not record it
   * (workers/journal/group-commit.ts): a replay builds the very same keys.
   */
  judge(claim: IdempotencyClaim): KeyVerdict {
    const { id, fingerprint } = this.#digest(claim);
    const slot = this.#slots.get(id);
    if (slot === undefined) return { kind: 'new' };
    const index = slot - this.#base;
    if (this.#expired(index)) return { kind: 'new' };
    // Another body is the client's mistake whatever the first request's state: 422 before 409.
    if (this.#fingerprints[index] !== fingerprint) return { kind: 'reused' };
    const answer = this.#answers[index];
    if (answer === undefined) return { kind: 'in-progress' };
    return { kind: 'replay', answer: 'kind' in answer ? answer : answer.answer(this.#refs[index] ?? 0) };
  }

  /** Marks the key as being answered: a repeat meanwhile is 409. */
  hold(claim: IdempotencyClaim): void {
    this.#set(claim, undefined, 0, 0);
  }

  /** Remembers the answer under the key (made anew if it was forgotten meanwhile). */
  remember(claim: IdempotencyClaim, answer: RememberedAnswer): void {
    this.#set(claim, answer, 0, charsOf(answer));
  }

  /** Remembers an answer the source makes again from `ref` when asked: a number in memory, not the answer's text. */
  rememberRebuilt(claim: IdempotencyClaim, source: AnswerSource, ref: number): void {
    this.#set(claim, source, ref, 0);
  }

  /** Forgets a key whose request changed nothing, so the client may send it again. */
  release(claim: IdempotencyClaim): void {
    const slot = this.#slots.get(this.#digest(claim).id);
    if (slot !== undefined) this.#forget(slot - this.#base);
  }

  captureState(): IdempotencyKeysState {
    const state = { ids: [] as string[], at: [] as number[], fingerprints: [] as number[], answers: [] as KeptAnswer[] };
    for (let index = this.#head - this.#base; index < this.#tail - this.#base; index++) {
      const id = this.#ids[index];
      if (id === undefined) continue;
      const answer = this.#answers[index];
      state.ids.push(id);
      state.at.push(this.#at[index] ?? 0);
      state.fingerprints.push(this.#fingerprints[index] ?? 0);
      if (answer === undefined) state.answers.push({ kind: 'in-progress' });
      else if ('kind' in answer) state.answers.push({ ...answer });
      else state.answers.push({ kind: 'rebuilt', source: answer.name, ref: this.#refs[index] ?? 0 });
    }
    return { ids: state.ids, at: Float64Array.from(state.at), fingerprints: Float64Array.from(state.fingerprints), answers: state.answers };
  }

  /** Into keys that remember nothing; `sources` make the rebuilt answers again, one of each kind there is. */
  restoreState(state: IdempotencyKeysState, sources: Readonly<Record<AnswerSourceName, AnswerSource>>): void {
    if (this.#tail > 0) throw new Error('idempotency keys are restored only when they were made empty');
    const count = state.ids.length;
    if (state.at.length !== count || state.fingerprints.length !== count || state.answers.length !== count) throw new RangeError('an idempotency key state whose columns differ in length');
    this.#at = Float64Array.from(state.at);
    this.#fingerprints = Float64Array.from(state.fingerprints);
    this.#refs = new Float64Array(count);
    this.#sizes = new Float64Array(count);
    state.ids.forEach((id, index) => {
      const kept = state.answers[index] ?? { kind: 'in-progress' };
      let answer: RememberedAnswer | AnswerSource | undefined;
      if (kept.kind === 'in-progress') answer = undefined;
      else if (kept.kind === 'rebuilt') {
        if (!Object.hasOwn(sources, kept.source)) throw new RangeError(`an idempotency key whose answer comes from an unknown source, ${JSON.stringify(kept.source)}`);
        answer = sources[kept.source];
        this.#refs[index] = kept.ref;
      } else answer = kept;
      const size = ENTRY_BYTES + (answer !== undefined && 'kind' in answer ? charsOf(answer) : 0);
      this.#ids[index] = id;
      this.#answers[index] = answer;
      this.#sizes[index] = size;
      this.#chars += size;
      this.#slots.set(id, index);
    });
    this.#tail = count;
  }

  #expired(index: number): boolean {
    return (this.#at[index] ?? -Infinity) <= this.#now() - this.#limits.ttlMs;
  }

  #digest(claim: IdempotencyClaim): ClaimDigest {
    if (this.#last?.claim !== claim) this.#last = { claim, digest: digestOf(claim) };
    return this.#last.digest;
  }

  #set(claim: IdempotencyClaim, answer: RememberedAnswer | AnswerSource | undefined, ref: number, chars: number): void {
    this.#sweep();
    const { id, fingerprint } = this.#digest(claim);
    const size = ENTRY_BYTES + chars;
    let known = this.#slots.get(id);
    // Past its time but not swept (the clock stepped back past a younger key): judged new, so it is made anew.
    if (known !== undefined && this.#expired(known - this.#base)) {
      this.#forget(known - this.#base);
      known = undefined;
    }
    const index = known === undefined ? this.#append(id, fingerprint) : known - this.#base;
    this.#chars += size - (this.#sizes[index] ?? 0);
    this.#answers[index] = answer;
    this.#refs[index] = ref;
    this.#sizes[index] = size;
    this.#evictOverBudget();
  }

  #append(id: string, fingerprint: number): number {
    const index = this.#tail - this.#base;
    this.#at = ensureLength(this.#at, index + 1, Float64Array);
    this.#fingerprints = ensureLength(this.#fingerprints, index + 1, Float64Array);
    this.#refs = ensureLength(this.#refs, index + 1, Float64Array);
    this.#sizes = ensureLength(this.#sizes, index + 1, Float64Array);
    this.#ids[index] = id;
    this.#at[index] = this.#now();
    this.#fingerprints[index] = fingerprint;
    this.#sizes[index] = 0;
    this.#slots.set(id, this.#tail);
    this.#tail++;
    return index;
  }

  /** Empties a slot; the front's are taken off the queue. */
  #forget(index: number): void {
    const id = this.#ids[index];
    if (id === undefined) return;
    this.#slots.delete(id);
    this.#chars -= this.#sizes[index] ?? 0;
    this.#ids[index] = undefined;
    this.#answers[index] = undefined;
    this.#sizes[index] = 0;
    while (this.#head < this.#tail && this.#ids[this.#head - this.#base] === undefined) this.#head++;
    this.#compact();
  }

  #sweep(): void {
    const oldest = this.#now() - this.#limits.ttlMs;
    while (this.#head < this.#tail && (this.#at[this.#head - this.#base] ?? Infinity) <= oldest) this.#forget(this.#head - this.#base);
  }

  #evictOverBudget(): void {
    while (this.#chars > this.#limits.maxChars && this.#head < this.#tail) this.#forget(this.#head - this.#base);
  }

  /** Drops the taken front of the columns once it is most of them, so memory follows the live keys, not their history. */
  #compact(): void {
    const gone = this.#head - this.#base;
    if (gone <= 1024 || gone * 2 <= this.#tail - this.#base) return;
    const live = this.#tail - this.#head;
    this.#ids = this.#ids.slice(gone);
    this.#answers = this.#answers.slice(gone);
    for (const column of [this.#at, this.#fingerprints, this.#refs, this.#sizes]) column.copyWithin(0, gone, gone + live);
    this.#base = this.#head;
  }
}
