/**
 * The marketplace crash workload's writes, one customer's at a time: each
 * sets the customer's `pending` while it is out and, once answered, what it
 * left; each answers false when it got no answer (the process is gone).
 */
import { dataOf, type ApiResponse } from '../api/product-api.js';
import type { RunningService } from '../service/service.js';
import type { Cart, Order } from '../api/order-api.js';
import type { User } from '../api/people-api.js';
import type { WriteCounter } from './crash-rounds.js';
import { CARD, linesOf, orderModel, type AddressFields, type OrderModel, type PendingWrite, type ShopCustomer } from './shop-crash-customers.js';

/** A customer's writes during the load; each answers false when the write went unanswered (the process is gone). */
export interface CustomerWrites {
  readonly service: RunningService;
  readonly writes: WriteCounter;
  /** Answers no write should get. */
  readonly problems: string[];
}

function unexpected(context: CustomerWrites, customer: ShopCustomer, what: string, response: ApiResponse): void {
  context.problems.push(`${customer.email}: ${what} answered ${response.status}: ${response.text.slice(0, 300)}`);
}

/** Sends the customer's next write with `pending` set while it is out; undefined when unanswered (pending stays). */
async function send(context: CustomerWrites, customer: ShopCustomer, pending: PendingWrite, method: string, path: string, json?: unknown, headers: Readonly<Record<string, string>> = {}): Promise<ApiResponse | undefined> {
  customer.pending = pending;
  const response = await context.writes.send(context.service, method, path, json === undefined ? undefined : { json }, { ...customer.auth, ...headers });
  if (response !== undefined) customer.pending = undefined;
  return response;
}

export async function registerCustomer(context: CustomerWrites, customer: ShopCustomer): Promise<boolean> {
  for (;;) {
    const response = await send(context, customer, { kind: 'register' }, 'POST', '/users/register', { email: customer.email, password: customer.password, name: customer.name });
    if (response === undefined) return false;
    // The hash queue is full: nothing was done, try again like a client.
    if (response.status === 503) continue;
    if (response.status !== 201) {
      unexpected(context, customer, 'POST /users/register', response);
      return false;
    }
    customer.registered = 'yes';
    customer.userId = dataOf<User>(response).id;
    return true;
  }
}

export async function addAddress(context: CustomerWrites, customer: ShopCustomer, fields: AddressFields): Promise<boolean> {
  const response = await send(context, customer, { kind: 'address', fields }, 'POST', '/users/me/addresses', fields);
  if (response === undefined) return false;
  if (response.status === 201) customer.addresses.push({ id: dataOf<{ id: number }>(response).id, fields });
  else unexpected(context, customer, 'POST address', response);
  return true;
}

export async function putCartLine(context: CustomerWrites, customer: ShopCustomer, productId: number, quantity: number): Promise<boolean> {
  const response = await send(context, customer, { kind: 'cart', productId, quantity }, 'PUT', `/users/me/cart/items/${productId}`, { quantity });
  if (response === undefined) return false;
  if (response.status === 200) customer.cart = linesOf(dataOf<Cart>(response).items);
  else unexpected(context, customer, `PUT cart line ${productId}`, response);
  return true;
}


export async function placeOrder(context: CustomerWrites, customer: ShopCustomer): Promise<boolean> {
  const address = customer.addresses[0];
  if (address === undefined) throw new Error(`${customer.email} has no address to order to`);
  const key = `${customer.email}-order-${++customer.keys}`;
  const response = await send(context, customer, { kind: 'order', key, addressId: address.id }, 'POST', '/users/me/orders', { addressId: address.id }, { 'idempotency-key': key });
  if (response === undefined) return false;
  if (response.status !== 201) {
    unexpected(context, customer, 'POST order', response);
    return true;
  }
  const order = dataOf<Order>(response);
  if (JSON.stringify(linesOf(order.items)) !== JSON.stringify(customer.cart)) context.problems.push(`${customer.email}: order ${order.id} holds ${JSON.stringify(order.items)}, the cart held ${JSON.stringify(customer.cart)}`);
  customer.orders.push(orderModel(order, { key, ref: address.id, id: order.id, text: response.text, replays: 0 }));
  customer.cart = [];
  return true;
}

export async function payOrder(context: CustomerWrites, customer: ShopCustomer, order: OrderModel): Promise<boolean> {
  const key = `${customer.email}-pay-${++customer.keys}`;
  const response = await send(context, customer, { kind: 'pay', orderId: order.id, key }, 'POST', `/users/me/orders/${order.id}/payments`, CARD, { 'idempotency-key': key });
  if (response === undefined) return false;
  if (response.status !== 201) {
    unexpected(context, customer, `POST payment for order ${order.id}`, response);
    return true;
  }
  order.payment = { key, ref: order.id, id: dataOf<{ id: number }>(response).id, text: response.text, replays: 0 };
  order.status = 'paid';
  order.paymentStatus = 'paid';
  return true;
}

export async function cancelOrder(context: CustomerWrites, customer: ShopCustomer, order: OrderModel): Promise<boolean> {
  const response = await send(context, customer, { kind: 'cancel', orderId: order.id }, 'POST', `/users/me/orders/${order.id}/cancel`);
  if (response === undefined) return false;
  if (response.status !== 200) {
    unexpected(context, customer, `cancel order ${order.id}`, response);
    return true;
  }
  const answered = dataOf<Order>(response);
  order.status = answered.status;
  order.paymentStatus = answered.paymentStatus;
  return true;
}
