/**
 * The answer of a batch made only of writes, held by the store thread while
 * a flush is on its way, and posted with that flush's notice.
 *
 * Why: the front keeps one batch in flight and gathers what arrives
 * meanwhile into the next (src/store/store-client.ts). The answer of a batch
 * whose every result waits for a flush gives the front nothing to send to
 * its clients; posted at once, it only frees the front to send the next few
 * requests as a batch of their own, and under a write load a flush then
 * carried four or five small batches, each a wake-up of both threads each
 * way (issue 30). Held until the append ends, it leaves in one message with
 * the flush's notice (a StoreBundle: one wake-up of the front, where two
 * messages posted one after the other can wake it twice), and the front
 * gathers everything that came during the flush into one batch.
 *
 * A batch with any answer the front may give out at once (a read, a
 * refusal before it ran) is posted at once, and the front sends a batch with
 * a plain read even while batches of writes are away (src/store/store-client.ts,
 * BatchingOptions.writesHeld), so a read never waits for a flush
 * (docs/durability.md, "What it guarantees"). Answers leave in the order
 * their batches came: an answer posted at once takes what is held along, in
 * one message; the held answers' results still wait for the flush's notice
 * on the front (their `durableAt`).
 */
import type { MessagePort } from 'node:worker_threads';
import type { StoreBatchAnswer, StoreNotice } from '../store-protocol.js';
import { answerTransfers } from '../answer-transfers.js';

/** Whether every result of the answer waits for a flush not yet on disk. */
function waitsWhole(answer: StoreBatchAnswer): boolean {
  if (Array.isArray(answer) || !('durableAt' in answer) || answer.durableAt === undefined || 'seq' in answer) return false;
  return answer.journaled.length * 2 === answer.packed.length;
}

export class AnswerHold {
  readonly #port: MessagePort;
  #held: StoreBatchAnswer[] = [];

  constructor(port: MessagePort) {
    this.#port = port;
  }

  /** Posts the answer after every held one, or holds it when every result waits for the flush in flight (`appending`). */
  post(answer: StoreBatchAnswer, appending: boolean): void {
    if (appending && waitsWhole(answer)) {
      this.#held.push(answer);
      return;
    }
    this.release(answer);
  }

  /** Posts every held answer, in order, and then `last` (an answer, a notice), in one message. */
  release(last?: StoreBatchAnswer | StoreNotice): void {
    const held = this.#held;
    if (held.length === 0) {
      if (last !== undefined) this.#port.postMessage(last, 'notice' in last ? [] : answerTransfers(last));
      return;
    }
    this.#held = [];
    const transfers = held.flatMap(answerTransfers);
    if (last !== undefined && !('notice' in last)) transfers.push(...answerTransfers(last));
    if (held.length === 1 && last === undefined) this.#port.postMessage(held[0], transfers);
    else this.#port.postMessage({ bundle: last === undefined ? held : [...held, last] }, transfers);
  }
}
