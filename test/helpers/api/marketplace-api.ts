/**
 * The marketplace's products over HTTP (contract section 7): the service's
 * settings, the administrator's key, six-field products, and the checks the
 * search and paging tests share.
 */
import type { ExecutionContext } from 'ava';
import type { ServiceOptions, ServiceUnderTest } from '../service/service.js';
import { assertErrorBody, call, dataOf, type ApiResponse } from './product-api.js';
import { apiKeyAuth } from './auth-api.js';

export const ADMIN_KEY = 'Admin-Key-123456';
export const MARKETPLACE: ServiceOptions = { env: { MARKETPLACE: '1', API_KEYS: `admin=${ADMIN_KEY}` } };
export const ADMIN = apiKeyAuth(ADMIN_KEY);

/** A marketplace product as the list, POST and PUT show it. */
export interface CatalogProduct {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly price: number;
  readonly category: string | null;
  readonly stock: number | null;
}

export type CatalogFields = Omit<CatalogProduct, 'id'>;

/** A review as the service shows it. */
export interface Review {
  readonly id: number;
  readonly productId: number;
  readonly userId: number;
  readonly author: string;
  readonly rating: number;
  readonly title: string | null;
  readonly body: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const PRODUCT_KEYS = ['id', 'name', 'description', 'price', 'category', 'stock'];

/** The seeded ten's categories and stock, ids 1 to 10. */
export const SEEDED_CATEGORIES_AND_STOCK: readonly (readonly [string | null, number | null])[] = [
  ['espresso', 12],
  ['grinders', 25],
  ['kettles', 40],
  ['brewers', 30],
  ['accessories', 60],
  ['drinkware', 80],
  ['accessories', 35],
  ['brewers', 0],
  ['drinkware', 50],
  ['maintenance', 120],
];

export const adminPost = (service: ServiceUnderTest, path: string, json: unknown): Promise<ApiResponse> => call(service, 'POST', path, { json }, ADMIN);
export const adminPut = (service: ServiceUnderTest, path: string, json: unknown): Promise<ApiResponse> => call(service, 'PUT', path, { json }, ADMIN);
export const adminDelete = (service: ServiceUnderTest, path: string): Promise<ApiResponse> => call(service, 'DELETE', path, undefined, ADMIN);

/** POST /products as the administrator, which must succeed: the stored product. */
export async function createProduct(service: ServiceUnderTest, fields: Partial<CatalogFields>): Promise<CatalogProduct> {
  const response = await adminPost(service, '/products', fields);
  if (response.status !== 201) throw new Error(`POST /products answered ${response.status}: ${response.text}`);
  return dataOf<CatalogProduct>(response);
}

/** Deletes the seeded ten and creates `products` in order (their ids are 11, 12...). */
export async function replaceCatalog(service: ServiceUnderTest, products: readonly CatalogFields[]): Promise<CatalogProduct[]> {
  for (let id = 1; id <= 10; id++) {
    const response = await adminDelete(service, `/products/${id}`);
    if (response.status !== 204) throw new Error(`DELETE /products/${id} answered ${response.status}: ${response.text}`);
  }
  const created: CatalogProduct[] = [];
  for (const fields of products) created.push(await createProduct(service, fields));
  return created;
}

/** The ids of a list answer, in order. */
export function listIds(response: ApiResponse): number[] {
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${response.text}`);
  return dataOf<{ id: number }[]>(response).map((item) => item.id);
}

/** An RFC 8288 Link header as rel → URL; undefined when there is none. */
export function linksOf(response: ApiResponse): Record<string, string> | undefined {
  const header = response.headers.get('link');
  if (header === null) return undefined;
  const links: Record<string, string> = {};
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>;\s*rel="([a-z]+)"$/.exec(part.trim());
    if (match === null) throw new Error(`not a link: ${part}`);
    const [, url = '', rel = ''] = match;
    if (rel in links) throw new Error(`rel ${rel} twice in ${header}`);
    links[rel] = url;
  }
  return links;
}

/** A 400 `{"error"}` whose message starts with the parameter's name (`page` is not `per_page`). */
export function assertParameterError(t: ExecutionContext, response: ApiResponse, name: string, label = name): void {
  const message = assertErrorBody(t, response, 400, label);
  t.true(message.startsWith(`${name} `), `${label}: "${message}" does not name ${name}`);
}
