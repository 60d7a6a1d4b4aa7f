/**
 * The payment route's calls against a fake order shop (fake-order-shop.ts),
 * shared by test/unit/front/payments-route-*.test.ts: a shop with one
 * registered customer, and POST /users/:userId/orders/:orderId/payments as
 * that customer with a fresh Idempotency-Key unless the test names one.
 */
import type { ExecutionContext } from 'ava';
import { call, type ApiResponse } from '../api/product-api.js';
import { newCustomer, type Customer } from '../api/people-api.js';
import { RecordingProcessor, cardBody } from '../api/card-processors.js';
import type { ServiceUnderTest } from '../service/service.js';
import type { CardProcessor } from '../../../src/payments/card-processor.js';
import { fakeOrderShop } from './fake-order-shop.js';

let keySerial = 0;
export const freshKey = (): string => `key-${++keySerial}-${Date.now()}`;

export const payPath = (orderId: number | string, userId: number | string = 'me') => `/users/${userId}/orders/${orderId}/payments`;

/** `key` null: no Idempotency-Key header. */
export function pay(service: ServiceUnderTest, customer: Customer, orderId: number | string, body: unknown = cardBody(), key: string | null = freshKey(), userId: number | string = 'me'): Promise<ApiResponse> {
  return call(service, 'POST', payPath(orderId, userId), { json: body }, { ...customer.auth, ...(key === null ? {} : { 'idempotency-key': key }) });
}

export async function shopWithCustomer(t: ExecutionContext, cardProcessor: CardProcessor = new RecordingProcessor(), env: Readonly<Record<string, string>> = {}) {
  const { service, orders } = await fakeOrderShop(t, { cardProcessor, env });
  const customer = await newCustomer(service, 'Payer');
  return { service, orders, customer };
}
