/**
 * Small HTTP conveniences for the /products and /produkte tests: a service
 * that lives exactly as long as one test, and one call that returns status,
 * headers, the raw body text and the parsed body together.
 */
import type { ExecutionContext } from 'ava';
import http from 'node:http';
import https from 'node:https';
import { rawRequest, startInProcess, type InProcessOptions, type RawResponse, type ServiceUnderTest } from '../service/service.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A product as the service shows it. */
export interface Product {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly price: number;
}

/** A /produkte item as the service shows it. */
export interface Produkt {
  readonly id: number;
  readonly name: string;
  readonly price: number;
}

/**
 * A service of its own for one test: tests that change the store must not
 * see each other's changes, and ava runs a file's tests concurrently. It runs
 * in the test process (see startInProcess), with its own store worker.
 */
export async function ownService(t: ExecutionContext, options: InProcessOptions = {}): Promise<ServiceUnderTest> {
  const service = await startInProcess(options);
  t.teardown(async () => {
    await service.stop();
  });
  return service;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The body exactly as sent. */
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  readonly body: unknown;
}

/** A request body: any JSON value, or `{ raw }` for bytes sent as they are. */
export type RequestBody = { readonly raw: string } | { readonly json: unknown };

function parseOrUndefined(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/**
 * `headers` carry credentials and the like; they are sent as given, after the JSON Content-Type.
 * Sent with node:http (node:https for a TLS service) rather than fetch: the test process's CPU
 * goes mostly to its HTTP client otherwise (fetch's web streams, and loading undici), and most
 * tests are calls. Like an API client, it follows no redirect and sends only the headers it is
 * given, a Content-Length with a body, and Host.
 */
export function call(
  service: ServiceUnderTest,
  method: string,
  path: string,
  body?: RequestBody,
  headers: Readonly<Record<string, string>> = {},
): Promise<ApiResponse> {
  const text = body === undefined ? undefined : 'raw' in body ? body.raw : JSON.stringify(body.json);
  const sent = text === undefined ? { ...headers } : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers };
  const url = new URL(`${service.url}${path}`);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method, headers: sent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const answered = new Headers();
        const raw = response.rawHeaders;
        for (let index = 0; index < raw.length; index += 2) answered.append(raw[index] ?? '', raw[index + 1] ?? '');
        const received = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, headers: answered, text: received, body: parseOrUndefined(received) });
      });
    });
    request.on('error', reject);
    request.end(text);
  });
}

export const getJson = (service: ServiceUnderTest, path: string): Promise<ApiResponse> => call(service, 'GET', path);
export const postJson = (service: ServiceUnderTest, path: string, json: unknown): Promise<ApiResponse> => call(service, 'POST', path, { json });
export const putJson = (service: ServiceUnderTest, path: string, json: unknown): Promise<ApiResponse> => call(service, 'PUT', path, { json });
export const deletePath = (service: ServiceUnderTest, path: string): Promise<ApiResponse> => call(service, 'DELETE', path);

/** The `data` member of a success body. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects: a cast, kept in one place
export function dataOf<T>(response: ApiResponse): T {
  return (response.body as { data: T }).data;
}

export async function listProducts(service: ServiceUnderTest): Promise<Product[]> {
  const response = await getJson(service, '/products');
  if (response.status !== 200) throw new Error(`GET /products answered ${response.status}: ${response.text}`);
  return dataOf<Product[]>(response);
}

export async function listProdukte(service: ServiceUnderTest): Promise<Produkt[]> {
  const response = await getJson(service, '/produkte');
  if (response.status !== 200) throw new Error(`GET /produkte answered ${response.status}: ${response.text}`);
  return dataOf<Produkt[]>(response);
}

/**
 * Sends one request on its own connection and returns the response as it
 * came off the wire: for checking that a body is really empty.
 */
export function rawCall(service: ServiceUnderTest, method: string, path: string): Promise<RawResponse> {
  const target = new URL(`${service.url}${path}`);
  return rawRequest(service.port, `${method} ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n\r\n`);
}

/**
 * Asserts the exact error shape of the product routes: `{"error": "<non-empty
 * string>"}` as JSON. `label` says which request failed when one test sends many.
 */
export function assertErrorBody(t: ExecutionContext, response: ApiResponse, status: number, label = ''): string {
  const where = label === '' ? '' : `${label}: `;
  t.is(response.status, status, `${where}expected ${status}, got ${response.status} ${response.text}`);
  t.is(response.headers.get('content-type'), JSON_TYPE, `${where}content type`);
  t.true(typeof response.body === 'object' && response.body !== null && !Array.isArray(response.body), `${where}body is not an object: ${response.text}`);
  const body = (response.body ?? {}) as Record<string, unknown>;
  t.deepEqual(Object.keys(body), ['error'], `${where}error body has other keys: ${response.text}`);
  t.is(typeof body.error, 'string', `${where}error is not a string`);
  t.not(body.error, '', `${where}error is empty`);
  return String(body.error);
}

/** Asserts a 404 whose message says that the product was not found. */
export function assertNotFound(t: ExecutionContext, response: ApiResponse, label = ''): void {
  const message = assertErrorBody(t, response, 404, label);
  t.regex(message, /not found/i, label);
  t.regex(message, /product/i, label);
}

/**
 * Asserts the seed's "all three fields" 400: the message names name,
 * description and price (the contract's wording: "name, description and price are required").
 */
export function assertFieldsRequired(t: ExecutionContext, response: ApiResponse, label = ''): void {
  const message = assertErrorBody(t, response, 400, label);
  for (const word of ['name', 'description', 'price', 'required']) t.true(message.includes(word), `${label}: "${message}" does not say "${word}"`);
}

/** Asserts a fetch Response is `{"error": <non-empty string>}` JSON with the given status; returns the message. */
export async function assertErrorResponse(t: ExecutionContext, response: Response, status: number): Promise<string> {
  t.is(response.status, status);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  const body = (await response.json()) as Record<string, unknown>;
  t.deepEqual(Object.keys(body), ['error']);
  t.is(typeof body.error, 'string');
  t.not(body.error, '');
  return body.error as string;
}
