/**
 * What other domains may ask of the orders, inside the store: the seams
 * between orders, payments and reviews. The orders domain implements both;
 * payments and reviews receive them when the store is assembled.
 */

export type ChargeStart =
  /** The order is the customer's and pending, and now counts as being paid: cancels are refused and the expiry clock waits until the charge is finished. */
  | { readonly kind: 'charging'; readonly amountCents: number; readonly currency: string }
  | { readonly kind: 'refused'; readonly code: 'ORDER_NOT_FOUND' | 'ORDER_NOT_PAYABLE' | 'CHARGE_IN_PROGRESS' };

export interface OrderPayments {
  /** Whether the customer has this order (read only: a payment's 404 comes before its 400). */
  hasOrder(userId: number, orderId: number): boolean;
  /** Starts a charge of the order's total; at most one charge is out per order. */
  beginCharge(userId: number, orderId: number): ChargeStart;
  /** Ends the charge begun for the order: succeeded, the order becomes paid; declined, it stays pending and may be paid again. */
  finishCharge(orderId: number, succeeded: boolean): void;
}

export interface PurchaseRecord {
  /** Whether the customer holds a paid, shipped or delivered order with this product (reviews' verified-purchase rule). */
  hasPurchased(userId: number, productId: number): boolean;
}
