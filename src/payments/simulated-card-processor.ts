import { setTimeout as delay } from 'node:timers/promises';
import { cardBrand } from './card-check.js';
import type { CardProcessor, ChargeOutcome, ChargeRequest } from './card-processor.js';

/** The contract's test cards. */
export const DECLINED_CARD = '4000000000000002';
export const INSUFFICIENT_FUNDS_CARD = '4000000000009995';

export interface SimulatedProcessorOptions {
  /** How long each charge takes, in milliseconds (0: answered on the next turn of the event loop). */
  readonly latencyMs?: number;
}

/**
 * The processor the service ships, so the whole flow works with no outside
 * service: two test numbers are declined, any other (valid: the form was
 * checked before) is charged. Its latency can be set, so tests can hold a
 * charge out and race other requests against it.
 */
export class SimulatedCardProcessor implements CardProcessor {
  readonly #latencyMs: number;

  constructor({ latencyMs = 0 }: SimulatedProcessorOptions = {}) {
    this.#latencyMs = latencyMs;
  }

  async charge({ card }: ChargeRequest): Promise<ChargeOutcome> {
    await delay(this.#latencyMs);
    if (card.number === DECLINED_CARD) return { kind: 'declined', code: 'card_declined' };
    if (card.number === INSUFFICIENT_FUNDS_CARD) return { kind: 'declined', code: 'insufficient_funds' };
    return { kind: 'succeeded', brand: cardBrand(card.number), last4: card.number.slice(-4) };
  }
}
