import type { Logger } from '../log/logger.js';
import type { StoreClient } from '../store/store-client.js';

/** How often the clock asks the store to cancel unpaid orders that are due. */
export const ORDER_CLOCK_INTERVAL_MS = 1000;

export interface OrderClock {
  stop(): void;
}

/**
 * The expiry clock of unpaid orders (ORDER_PAYMENT_TTL): every interval it
 * sends `orders.expire` with the time, and the store cancels what is due
 * (a FIFO queue there, so a tick costs the orders that expire). One tick at
 * a time: a tick is skipped while the last is unanswered. The timer is
 * unref'd, so it never keeps the process alive, and stopped with the service.
 */
export function startOrderClock(store: StoreClient, log: Logger, intervalMs = ORDER_CLOCK_INTERVAL_MS): OrderClock {
  let ticking = false;
  const tick = async (): Promise<void> => {
    const reply = await store.send({ kind: 'orders.expire', now: Date.now() });
    // Busy (the store's queue is full): the next tick takes what is due then.
    if (reply.kind === 'failed') log.error('order clock tick failed', { reason: reply.reason });
  };
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    tick()
      .catch((error: unknown) => log.error('order clock tick failed', { error: error instanceof Error ? error.message : String(error) }))
      .finally(() => (ticking = false));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
