/**
 * How many order event streams may be open: in all on this instance
 * (EVENT_STREAMS_MAX) and per customer (EVENT_STREAMS_PER_CUSTOMER). Each
 * stream holds a connection, a few kilobytes and a timer for as long as its
 * client stays, so both are capped; administrators count towards the total
 * only (a fulfilment screen per desk). A slot is taken before the stream's
 * store read and given back when the stream ends, whatever ended it.
 */
export type CapVerdict = 'granted' | 'customer-full' | 'full';

export class StreamCaps {
  readonly #max: number;
  readonly #perCustomer: number;
  #open = 0;
  /** Open streams by customer id, for customers with at least one. */
  readonly #byCustomer = new Map<number, number>();

  constructor(max: number, perCustomer: number) {
    this.#max = max;
    this.#perCustomer = perCustomer;
  }

  /** Streams open (or opening) now. */
  get open(): number {
    return this.#open;
  }

  /** Takes a slot for a customer's stream (`customerId`) or an administrator's (undefined). */
  take(customerId: number | undefined): CapVerdict {
    const mine = customerId === undefined ? 0 : (this.#byCustomer.get(customerId) ?? 0);
    if (customerId !== undefined && mine >= this.#perCustomer) return 'customer-full';
    if (this.#open >= this.#max) return 'full';
    this.#open++;
    if (customerId !== undefined) this.#byCustomer.set(customerId, mine + 1);
    return 'granted';
  }

  give(customerId: number | undefined): void {
    this.#open--;
    if (customerId === undefined) return;
    const mine = (this.#byCustomer.get(customerId) ?? 1) - 1;
    if (mine === 0) this.#byCustomer.delete(customerId);
    else this.#byCustomer.set(customerId, mine);
  }
}
