/**
 * Writers that follow Retry-After, as a well-behaved client does during a
 * rolling restart (issue 29): each POSTs its products one after the other,
 * through the instances a balancer has in rotation (the test takes one out
 * before it stops it, and waits for the requests sent to it); a 503 that
 * says nothing was applied is waited out for its Retry-After and the same
 * write sent again, a 503 WRITER_LOST (it may have been applied, and a
 * product has no Idempotency-Key) is kept as of unknown outcome; anything
 * else, a connection refused or cut included, is a client error.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { ClusterSlots } from './cluster-slots.js';

/** Which instances the balancer sends to, and how many requests each has out. */
export interface Rotation {
  readonly slots: Set<number>;
  readonly inFlight: number[];
}

export interface RetryOutcomes {
  readonly acknowledged: Map<string, number>;
  readonly unknown: Set<string>;
  /** Anything a client must not get in a rolling restart: not a 201, nor a 503 with Retry-After. */
  readonly errors: string[];
  /** 503s with Retry-After that said nothing was applied, each waited out and its write sent again. */
  readonly refused: string[];
}

export const noRetryOutcomes = (): RetryOutcomes => ({ acknowledged: new Map(), unknown: new Set(), errors: [], refused: [] });

/** Writes `<label>-<n>` products until `control.stopped`, each until it is answered for good. */
export async function writeFollowingRetryAfter(cluster: ClusterSlots, rotation: Rotation, label: string, control: { readonly stopped: boolean }, outcomes: RetryOutcomes): Promise<void> {
  let turn = 0;
  for (let n = 0; !control.stopped; n++) {
    const name = `${label}-${n}`;
    for (;;) {
      const slots = [...rotation.slots];
      const slot = slots[turn++ % Math.max(1, slots.length)];
      const url = slot === undefined ? undefined : cluster.urlOf(slot);
      if (slot === undefined || url === undefined) {
        await delay(20);
        continue;
      }
      rotation.inFlight[slot] = (rotation.inFlight[slot] ?? 0) + 1;
      let response: Response;
      let text: string;
      try {
        response = await fetch(`${url}/products`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name, description: 'a rolling restart', price: 1 }),
          signal: AbortSignal.timeout(10_000),
        });
        text = await response.text();
      } catch (error) {
        outcomes.errors.push(`${name} via slot ${slot}: no answer (${String((error as { cause?: unknown }).cause ?? error)})`);
        break;
      } finally {
        rotation.inFlight[slot] = (rotation.inFlight[slot] ?? 1) - 1;
      }
      const retryAfter = response.headers.get('retry-after');
      if (response.status === 201) outcomes.acknowledged.set(name, (JSON.parse(text) as { data: { id: number } }).data.id);
      else if (response.status === 503 && retryAfter !== null && text.includes('may have been applied')) outcomes.unknown.add(name);
      else if (response.status === 503 && retryAfter !== null && text.includes('nothing was applied')) {
        outcomes.refused.push(`${name} via slot ${slot}: ${text}`);
        await delay(Number(retryAfter) * 1000);
        continue;
      } else outcomes.errors.push(`${name} via slot ${slot}: ${response.status} ${text}`);
      break;
    }
    // A moment between two writes: the test's load, not the machine's whole.
    await delay(5);
  }
}
