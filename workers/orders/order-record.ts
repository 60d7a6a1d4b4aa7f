import { fromCents } from '../money.js';
import type { AddressFields } from '../addresses/address-protocol.js';
import { itemsJson, type PricedLine } from '../carts/priced-lines.js';
import type { OrderStatus, PaymentStatus } from './order-machine.js';

/** An address's fields without its id and createdAt, copied when the order is placed. */
export type ShippingAddress = AddressFields;

export interface HistoryEntry {
  readonly status: OrderStatus;
  readonly at: string;
}

/**
 * An order as the store holds it. Lines, prices and address are copies taken
 * at placement; what changes (status, payment, tracking, history) changes
 * only through the order store, which rebuilds `json` with every change, so
 * a read never serialises.
 */
export interface OrderRecord {
  readonly id: number;
  readonly userId: number;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  readonly lines: readonly PricedLine[];
  readonly totalCents: number;
  readonly currency: string;
  readonly shippingAddress: ShippingAddress;
  trackingNumber: string | null;
  readonly history: HistoryEntry[];
  readonly createdAt: string;
  updatedAt: string;
  /** When the clock cancels it if still unpaid (ms since the epoch). */
  readonly expiresAtMs: number;
  /** A charge is out (OrderPayments.beginCharge): cancels are refused and the clock waits. */
  charging: boolean;
  json: string;
}

/** Copies an address's own fields, in the contract's key order, leaving out its id, owner, createdAt and cached text. */
export function shippingAddressOf(address: AddressFields): ShippingAddress {
  const { name, line1, line2, city, postalCode, country, phone } = address;
  return { name, line1, line2, city, postalCode, country, phone };
}

/**
 * Key order is the contract's: id, userId, status, paymentStatus, items,
 * total, currency, shippingAddress, trackingNumber, history, createdAt,
 * updatedAt.
 */
export function orderJson(order: Omit<OrderRecord, 'json'>): string {
  const text = JSON.stringify;
  return (
    `{"id":${order.id},"userId":${order.userId},"status":${text(order.status)},"paymentStatus":${text(order.paymentStatus)},` +
    `"items":${itemsJson(order.lines)},"total":${text(fromCents(order.totalCents))},"currency":${text(order.currency)},` +
    `"shippingAddress":${text(order.shippingAddress)},"trackingNumber":${text(order.trackingNumber)},"history":${text(order.history)},` +
    `"createdAt":${text(order.createdAt)},"updatedAt":${text(order.updatedAt)}}`
  );
}
