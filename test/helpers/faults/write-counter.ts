/**
 * The crash rounds' count of writes (crash-rounds.ts): every write a
 * workload's load sends goes through one, which says what became of it and
 * lets the round pick the moment of its kill.
 */
import type { RunningService } from '../service/service.js';
import { call, type ApiResponse, type RequestBody } from '../api/product-api.js';

/**
 * Every write the load sends goes through here: an answer with a 2xx status
 * is acknowledged, any other answer refused, and a request that got no answer
 * (the process died under it) unanswered. The round can hold the writes at a
 * gate and let them go at once (crash-rounds.ts, crashRound).
 */
export class WriteCounter {
  acknowledged = 0;
  refused = 0;
  unanswered = 0;
  /** Writes sent and not yet answered. */
  inFlight = 0;
  #gate: { readonly opened: Promise<void>; readonly open: () => void } | undefined;
  #onIdle: (() => void)[] = [];
  /** Writes sent so far. */
  sent = 0;
  #onAcknowledged: { readonly sentAfter: number; readonly resolve: () => void }[] = [];
  #onSend: (() => void)[] = [];

  /** Writes sent from now on wait until release(). */
  hold(): void {
    let open = (): void => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.#gate = { opened, open };
  }

  /** Every write held goes out, in the same turn of the event loop. */
  release(): void {
    this.#gate?.open();
    this.#gate = undefined;
  }

  /** Resolves once no write is out. */
  whenIdle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.#onIdle.push(resolve));
  }

  /** Resolves as the next write sent after the first `sentAfter` is acknowledged, before its writer (or anything else) sends again. */
  nextAcknowledged(sentAfter = 0): Promise<void> {
    return new Promise((resolve) => this.#onAcknowledged.push({ sentAfter, resolve }));
  }

  /** Resolves as the next write is sent. */
  nextSend(): Promise<void> {
    return new Promise((resolve) => this.#onSend.push(resolve));
  }

  async send(service: RunningService, method: string, path: string, body?: RequestBody, headers: Readonly<Record<string, string>> = {}): Promise<ApiResponse | undefined> {
    if (this.#gate !== undefined) await this.#gate.opened;
    let response: ApiResponse;
    this.inFlight++;
    const serial = ++this.sent;
    try {
      const answer = call(service, method, path, body, headers);
      for (const sent of this.#onSend.splice(0)) sent();
      response = await answer;
    } catch {
      this.unanswered++;
      return undefined;
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) for (const idle of this.#onIdle.splice(0)) idle();
    }
    if (response.status >= 200 && response.status < 300) {
      this.acknowledged++;
      const due = this.#onAcknowledged.filter((waiting) => serial > waiting.sentAfter);
      this.#onAcknowledged = this.#onAcknowledged.filter((waiting) => serial <= waiting.sentAfter);
      for (const waiting of due) waiting.resolve();
    } else this.refused++;
    return response;
  }
}
