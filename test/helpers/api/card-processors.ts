/**
 * Card processors a test controls, each answering as the simulated one does
 * once it answers: one that holds every charge until the test lets it go (to
 * race requests against a charge that is out, without sleeping), and one
 * that fails its first charges (a processor that throws).
 */
import type { CardProcessor, ChargeOutcome, ChargeRequest } from '../../../src/payments/card-processor.js';
import { SimulatedCardProcessor } from '../../../src/payments/simulated-card-processor.js';

/** A payment as POST .../payments answers it (the contract's shape). */
export interface Payment {
  readonly id: number;
  readonly orderId: number;
  readonly amount: number;
  readonly currency: string;
  readonly status: string;
  readonly card: { readonly brand: string; readonly last4: string };
  readonly createdAt: string;
}

/** Test cards of the contract, and one valid number that is charged. */
export const CARDS = {
  visa: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

/** A card body that is valid and far from expiry. */
export const cardBody = (number: string = CARDS.visa, card: Readonly<Record<string, unknown>> = {}) => ({ card: { number, expMonth: 12, expYear: 2099, cvc: '123', ...card } });

/** Keeps every charge it is asked for, in order, and answers as the simulated processor. */
export class RecordingProcessor implements CardProcessor {
  readonly requests: ChargeRequest[] = [];
  readonly #simulated = new SimulatedCardProcessor();

  charge(request: ChargeRequest): Promise<ChargeOutcome> {
    this.requests.push(request);
    return this.answer(request);
  }

  protected answer(request: ChargeRequest): Promise<ChargeOutcome> {
    return this.#simulated.charge(request);
  }
}

/** Holds every charge until `release()`; `whenHolding(n)` resolves once n charges wait. */
export class GatedProcessor extends RecordingProcessor {
  #held: (() => void)[] = [];
  #watchers: { count: number; resolve: () => void }[] = [];

  protected override async answer(request: ChargeRequest): Promise<ChargeOutcome> {
    await new Promise<void>((resolve) => {
      this.#held.push(resolve);
      for (const watcher of this.#watchers.filter((each) => each.count <= this.#held.length)) watcher.resolve();
    });
    return super.answer(request);
  }

  whenHolding(count = 1): Promise<void> {
    if (this.#held.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#watchers.push({ count, resolve }));
  }

  /** Lets every held charge go on to its answer. */
  release(): void {
    for (const resolve of this.#held.splice(0)) resolve();
  }
}

/** Throws for its first `failures` charges (with the card in the message, as a careless SDK might), then charges. */
export class FailingProcessor extends RecordingProcessor {
  #failures: number;

  constructor(failures: number) {
    super();
    this.#failures = failures;
  }

  protected override answer(request: ChargeRequest): Promise<ChargeOutcome> {
    if (this.#failures > 0) {
      this.#failures -= 1;
      return Promise.reject(new Error(`processor unreachable while charging ${request.card.number} (cvc ${request.card.cvc})`));
    }
    return super.answer(request);
  }
}
