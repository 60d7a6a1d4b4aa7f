/**
 * Carts and orders for tests (contract section 7): the shapes the service
 * answers, and the few steps most tests take (a product, an address, a
 * cart line, an order).
 */
import { call, dataOf, type ApiResponse } from './product-api.js';
import type { ServiceUnderTest } from '../service/service.js';
import type { CredentialHeaders } from './auth-api.js';
import { adminKey, type Customer } from './people-api.js';

export interface Line {
  readonly productId: number;
  readonly name: string;
  readonly unitPrice: number;
  readonly quantity: number;
  readonly lineTotal: number;
}

export interface Cart {
  readonly items: readonly Line[];
  readonly itemCount: number;
  readonly total: number;
  readonly currency: string;
}

export interface Order {
  readonly id: number;
  readonly userId: number;
  readonly status: string;
  readonly paymentStatus: string;
  readonly items: readonly Line[];
  readonly total: number;
  readonly currency: string;
  readonly shippingAddress: Readonly<Record<string, string | null>>;
  readonly trackingNumber: string | null;
  readonly history: readonly { readonly status: string; readonly at: string }[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const CART_KEYS = ['items', 'itemCount', 'total', 'currency'];
export const LINE_KEYS = ['productId', 'name', 'unitPrice', 'quantity', 'lineTotal'];
export const ORDER_KEYS = ['id', 'userId', 'status', 'paymentStatus', 'items', 'total', 'currency', 'shippingAddress', 'trackingNumber', 'history', 'createdAt', 'updatedAt'];
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const HOME = { name: 'Ada Lovelace', line1: '12 St James Square', line2: null, city: 'London', postalCode: 'SW1Y 4JH', country: 'GB', phone: '+44 20 7946 0000' };

function expect(response: ApiResponse, status: number, what: string): ApiResponse {
  if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${response.text}`);
  return response;
}

/** A product made by the administrator (x-api-key); its id. */
export async function newProduct(service: ServiceUnderTest, fields: { name?: string; price: number; stock: number | null; category?: string | null }): Promise<number> {
  const body = { name: fields.name ?? 'Thing', description: 'A thing for tests', price: fields.price, category: fields.category ?? null, stock: fields.stock };
  return dataOf<{ id: number }>(expect(await call(service, 'POST', '/products', { json: body }, adminKey), 201, 'POST /products')).id;
}

/** Changes a product's fields as the administrator (PUT replaces all five). */
export async function changeProduct(service: ServiceUnderTest, id: number, fields: { name?: string; price: number; stock: number | null }): Promise<void> {
  const body = { name: fields.name ?? 'Thing', description: 'A thing for tests', price: fields.price, category: null, stock: fields.stock };
  expect(await call(service, 'PUT', `/products/${id}`, { json: body }, adminKey), 200, `PUT /products/${id}`);
}

export async function stockOf(service: ServiceUnderTest, id: number): Promise<number | null> {
  return dataOf<{ stock: number | null }>(expect(await call(service, 'GET', `/products/${id}`), 200, `GET /products/${id}`)).stock;
}

export async function newAddress(service: ServiceUnderTest, customer: Customer, fields: object = HOME): Promise<number> {
  return dataOf<{ id: number }>(expect(await call(service, 'POST', '/users/me/addresses', { json: fields }, customer.auth), 201, 'POST address')).id;
}

export const putLine = (service: ServiceUnderTest, auth: CredentialHeaders, productId: number | string, quantity: unknown, userId = 'me'): Promise<ApiResponse> =>
  call(service, 'PUT', `/users/${userId}/cart/items/${productId}`, { json: { quantity } }, auth);

export async function cartLine(service: ServiceUnderTest, customer: Customer, productId: number, quantity: number): Promise<Cart> {
  return dataOf<Cart>(expect(await putLine(service, customer.auth, productId, quantity), 200, `PUT cart line ${productId}`));
}

export const getCart = async (service: ServiceUnderTest, auth: CredentialHeaders, userId = 'me'): Promise<Cart> =>
  dataOf<Cart>(expect(await call(service, 'GET', `/users/${userId}/cart`, undefined, auth), 200, 'GET cart'));

export const postOrder = (service: ServiceUnderTest, auth: CredentialHeaders, addressId: unknown, userId = 'me'): Promise<ApiResponse> =>
  call(service, 'POST', `/users/${userId}/orders`, { json: { addressId } }, auth);

/** Puts the lines in the customer's cart and places them as an order (201 or throws). */
export async function placeOrder(service: ServiceUnderTest, customer: Customer, addressId: number, lines: readonly (readonly [productId: number, quantity: number])[]): Promise<Order> {
  for (const [productId, quantity] of lines) await cartLine(service, customer, productId, quantity);
  return dataOf<Order>(expect(await postOrder(service, customer.auth, addressId), 201, 'POST order'));
}

export const patchOrder = (service: ServiceUnderTest, orderId: number | string, body: unknown, auth: CredentialHeaders = adminKey): Promise<ApiResponse> =>
  call(service, 'PATCH', `/orders/${orderId}`, { json: body }, auth);
