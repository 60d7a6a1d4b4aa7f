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
 * refusal before it ran) is posted at once, so a read is never held back by
 * a flush unless it reaches the front while a batch of writes is away; it
 * then waits for the rest of that flush (docs/durability.md, "What it
 * guarantees"). Answers leave in the order their batches came: anything
 * posted on the port first releases what is held.
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

  /** Posts the answer, or holds it when every result waits for the flush in flight (`appending`). */
  post(answer: StoreBatchAnswer, appending: boolean): void {
    if (appending && waitsWhole(answer)) {
      this.#held.push(answer);
      return;
    }
    this.release();
    this.#port.postMessage(answer, answerTransfers(answer));
  }

  /** Posts every held answer, in order, and then `notice`, in one message. */
  release(notice?: StoreNotice): void {
    const held = this.#held;
    if (held.length === 0) {
      if (notice !== undefined) this.#port.postMessage(notice);
      return;
    }
    this.#held = [];
    const transfers = held.flatMap(answerTransfers);
    if (held.length === 1 && notice === undefined) this.#port.postMessage(held[0], transfers);
    else this.#port.postMessage({ bundle: notice === undefined ? held : [...held, notice] }, transfers);
  }
}
