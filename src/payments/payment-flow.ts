import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../log/logger.js';
import type { Reply } from '../http/reply.js';
import type { RouteInput } from '../http/route.js';
import type { IdempotencyClaim } from '../http/route.js';
import type { Identity } from '../auth/identity.js';
import type { StoreClient, StoreReply } from '../store/store-client.js';
import { storeReplyToHttp } from '../store/store-replies.js';
import type { StoreCommand } from '../../workers/store-protocol.js';
import type { ChargeResult, ChargeStarted } from '../../workers/payments/payment-protocol.js';
import { hasExpired, type CardInput } from './card-check.js';
import type { CardProcessor } from './card-processor.js';
import type { PaymentBody } from './payment-input.js';

/** How long a charge may take before the flow stops waiting and the order is released (the processor is told a reference it can deduplicate retries by). */
export const PROCESSOR_TIMEOUT_MS = 30_000;
/** The longest wait between two tries of a finish the store's full queue refused. */
const MAX_BUSY_BACKOFF_MS = 1_000;
/** The longest wait between two tries of a finish still not taken after the request was answered. */
const MAX_LATER_BACKOFF_MS = 5_000;

export interface PaymentFlowParts {
  readonly store: StoreClient;
  readonly processor: CardProcessor;
  readonly log: Logger;
  /** The clock that judges expiry (UTC months). */
  readonly now?: () => Date;
  readonly processorTimeoutMs?: number;
}

const FAILED: ChargeResult = { kind: 'failed' };
const EXPIRED: ChargeResult = { kind: 'declined', code: 'expired_card' };

type PaymentInput = RouteInput<Identity, PaymentBody, 'userId' | 'orderId'>;

/**
 * POST /users/:userId/orders/:orderId/payments once the request is judged
 * valid, in three steps across the thread hop:
 *
 *   1. `payments.begin` (store): the key, then the order, which now counts as
 *      being paid: a cancel is 409 and the expiry clock waits.
 *   2. here: an expired card is declined without asking anyone; otherwise the
 *      processor is asked, with a time limit. Whatever happens (a decline, a
 *      throw, no answer) becomes a ChargeResult: this step never throws.
 *   3. `payments.finish` (store), on every path and retried while the store
 *      is busy: nothing may stay "charging" for ever.
 *
 * The card lives only in this request's memory: the store gets its brand and
 * last four digits, the log gets neither.
 */
export function paymentFlow({ store, processor, log, now = () => new Date(), processorTimeoutMs = PROCESSOR_TIMEOUT_MS }: PaymentFlowParts) {
  // Per start: the ids in a scope start again after a restart, references must not.
  const referenceSalt = randomBytes(16).toString('hex');

  async function askProcessor(card: CardInput, charge: ChargeStarted, claim: IdempotencyClaim, orderId: number): Promise<ChargeResult> {
    if (hasExpired(card, now())) return EXPIRED;
    const reference = createHash('sha256').update(`${referenceSalt}\n${claim.scope}\n${claim.key}`).digest('hex');
    const timeout = new AbortController();
    try {
      const outcome = await Promise.race([
        processor.charge({ amountCents: charge.amountCents, currency: charge.currency, card, reference }),
        delay(processorTimeoutMs, 'timed out' as const, { signal: timeout.signal }),
      ]);
      if (outcome === 'timed out') {
        log.warn('card processor did not answer in time; the order is released', { orderId, timeoutMs: processorTimeoutMs });
        return FAILED;
      }
      return outcome.kind === 'succeeded' ? { kind: 'succeeded', brand: outcome.brand, last4: outcome.last4 } : { kind: 'declined', code: outcome.code };
    } catch (error) {
      // Only the error's class: a processor's message may quote what it was sent.
      log.warn('card processor failed; the order is released', { orderId, error: error instanceof Error ? error.name : typeof error });
      return FAILED;
    } finally {
      timeout.abort();
    }
  }

  /**
   * A finish must reach the store: a full queue (503) is waited out, not
   * answered; and so is a journal that cannot take it for a while, as the
   * finish ran nowhere (every `unavailable` but WRITER_LOST): with
   * DATABASE_URL a writer not reachable (a takeover) or PostgreSQL away,
   * with DATA_DIR a full disk (STORAGE_FULL). If the writer died
   * with the charge out, its successor has released it already, and this
   * finish is refused as any late one is.
   */
  async function sendUntilTaken(command: StoreCommand): Promise<StoreReply> {
    const noWriterUntil = performance.now() + processorTimeoutMs;
    for (let wait = 1; ; wait = Math.min(wait * 2, MAX_BUSY_BACKOFF_MS)) {
      const reply = await store.send(command);
      if (reply.kind !== 'busy' && !(ranNowhere(reply) && performance.now() < noWriterUntil)) return reply;
      await delay(wait);
    }
  }

  /**
   * The request was answered 503, but the processor's answer is known: a
   * charge that succeeded must not be left to the next start, which would
   * release the order as if it had failed. So the finish goes on being sent,
   * less often, until the store takes or refuses it (the disk has room again,
   * PostgreSQL or a writer answers); meanwhile the key is in progress (409). A
   * stop ends it with the process, and the next start releases the charge.
   */
  async function finishLater(command: StoreCommand, orderId: number): Promise<void> {
    log.warn('payment: the charge is settled but its finish could not be recorded yet; it is sent again until it is', { orderId });
    for (let wait = MAX_BUSY_BACKOFF_MS; ; wait = Math.min(wait * 2, MAX_LATER_BACKOFF_MS)) {
      // Unref'd: a stop is not held back by it.
      await delay(wait, undefined, { ref: false });
      const reply = await store.send(command);
      if (reply.kind === 'busy' || ranNowhere(reply)) continue;
      log.info('payment: a finish sent again was recorded', { orderId, reply: reply.kind });
      return;
    }
  }

  return async ({ ids: { userId, orderId }, body: { card }, idempotency: claim }: PaymentInput): Promise<Reply> => {
    if (claim === undefined) throw new Error('the payment route must require an Idempotency-Key');
    const begun = await store.send({ kind: 'payments.begin', userId, orderId, claim });
    if (begun.kind !== 'charging') return storeReplyToHttp(begun, 201, log);
    const result = await askProcessor(card, begun.charge, claim, orderId).catch(() => FAILED);
    log.debug('payment settled', { orderId, result: result.kind === 'declined' ? result.code : result.kind });
    const finish: StoreCommand = { kind: 'payments.finish', userId, orderId, claim, result };
    const finished = await sendUntilTaken(finish);
    if (ranNowhere(finished)) void finishLater(finish, orderId);
    return storeReplyToHttp(finished, 201, log);
  };
}

/** Refused before it ran, for a while (a full disk, PostgreSQL or the writer away): it may be sent again as it is. A lost writer's successor released the charge already. */
function ranNowhere(reply: StoreReply): boolean {
  return reply.kind === 'unavailable' && reply.code !== 'WRITER_LOST';
}
