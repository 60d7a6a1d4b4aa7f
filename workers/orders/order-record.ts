import { fromCents } from '../money.js';
import type { OrderTable } from './order-table.js';
import { shippingAddressOf } from './shipping-address.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The order's JSON, made from the table when it is read (one order, or a
 * page of them). Key order is the contract's: id, userId, status,
 * paymentStatus, items, total, currency, shippingAddress, trackingNumber,
 * history, createdAt, updatedAt.
 */
export function orderJson(table: OrderTable, orderId: number, currency: string): string {
  const text = JSON.stringify;
  const history = table.history(orderId);
  const address = table.shippingAddress(orderId);
  const historyJson = history.map((entry) => `{"status":${text(entry.status)},"at":${text(iso(entry.at))}}`).join(',');
  return (
    `{"id":${orderId},"userId":${table.userId(orderId)},"status":${text(table.status(orderId))},"paymentStatus":${text(table.paymentStatus(orderId))},` +
    `"items":${table.items(orderId)},"total":${text(fromCents(table.totalCents(orderId)))},"currency":${text(currency)},` +
    `"shippingAddress":${address === undefined ? 'null' : text(shippingAddressOf(address))},"trackingNumber":${text(table.trackingNumber(orderId))},"history":[${historyJson}],` +
    `"createdAt":${text(iso(history[0]?.at ?? 0))},"updatedAt":${text(iso(history.at(-1)?.at ?? 0))}}`
  );
}

/** One order as the store answers it: its id, and its JSON made on demand. */
export class OrderRecord {
  readonly id: number;
  readonly #table: OrderTable;
  readonly #currency: string;

  constructor(table: OrderTable, id: number, currency: string) {
    this.#table = table;
    this.id = id;
    this.#currency = currency;
  }

  get json(): string {
    return orderJson(this.#table, this.id, this.#currency);
  }
}
