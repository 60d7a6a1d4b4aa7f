/**
 * Judging one answer of the fuzz run (test/http/catalogue/http-fuzz.test.ts)
 * against one answer the contract allows (fuzz-contract.ts): the status, the
 * content type, the `{"error"}` or text body and challenge of each refusal,
 * Allow on 405 and OPTIONS, and each route's success body with the values the
 * request sent. A mismatch is a reason in words; undefined is a match.
 */
import { Buffer } from 'node:buffer';
import { BASIC_CHALLENGE, BEARER_CHALLENGE } from '../api/auth-api.js';
import { JSON_TYPE } from '../api/product-api.js';
import type { Delivery } from './fuzz-delivery.js';
import type { FuzzCase, RouteName } from './fuzz-case.js';
import { ALLOW, USERNAME, filled, isObject, readBody, routeKey, type Answer } from './fuzz-contract.js';

type Received = Extract<Delivery, { kind: 'response' }>;

/** Bodies the service gives for a route it does not have and for products that do not exist. */
export interface References {
  readonly routeNotFound: string;
  readonly productNotFound: string;
  readonly produktNotFound: string;
}

export function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const sortedMethods = (value: string | undefined): string =>
  (value ?? '')
    .split(',')
    .map((method) => method.trim())
    .filter((method) => method !== '')
    .sort()
    .join(', ');

/** `{"error": "<non-empty>"}` JSON with this status (for HEAD, the head only); `exact` pins the whole body. */
function jsonError(fuzzCase: FuzzCase, r: Received, status: number, exact?: string): string | undefined {
  if (r.status !== status) return `status ${r.status}`;
  if (r.headers['content-type'] !== JSON_TYPE) return `content-type ${r.headers['content-type'] ?? 'none'}`;
  if (fuzzCase.method === 'HEAD') {
    if (r.body !== '') return 'HEAD answered with a body';
    return exact === undefined || r.headers['content-length'] === String(Buffer.byteLength(exact)) ? undefined : `content-length ${r.headers['content-length'] ?? 'none'} is not that of ${exact}`;
  }
  const body = parsed(r.body);
  if (!isObject(body) || Object.keys(body).join() !== 'error' || !filled(body.error)) return 'not an {"error"} body';
  return exact === undefined || r.body === exact ? undefined : `body is not ${exact}`;
}

function textFailure(r: Received, status: number, challenge?: string): string | undefined {
  if (r.status !== status) return `status ${r.status}`;
  if (!/^text\/plain(;|$)/.test(r.headers['content-type'] ?? '')) return `content-type ${r.headers['content-type'] ?? 'none'}`;
  if (challenge !== undefined && r.headers['www-authenticate'] !== challenge) return `WWW-Authenticate ${r.headers['www-authenticate'] ?? 'none'}`;
  return undefined;
}

function allowMismatch(r: Received, route: RouteName): string | undefined {
  const expected = sortedMethods(ALLOW[route].join(','));
  return sortedMethods(r.headers.allow) === expected ? undefined : `Allow "${r.headers.allow ?? ''}", not ${expected}`;
}

/** The success answer of each route, with the stored values where the request decides them. */
function successMismatch(fuzzCase: FuzzCase, r: Received, route: RouteName): string | undefined {
  const key = routeKey(fuzzCase, route);
  const okStatus = key === 'POST /products' || key === 'POST /produkte' ? 201 : key === 'DELETE /products/:id' ? 204 : 200;
  if (r.status !== okStatus) return `status ${r.status}`;
  if (fuzzCase.method === 'HEAD' || okStatus === 204) return r.body === '' ? undefined : 'a body where none belongs';
  if (r.headers['content-type'] !== JSON_TYPE) return `content-type ${r.headers['content-type'] ?? 'none'}`;
  const body = parsed(r.body);
  const data = isObject(body) ? body.data : undefined;
  const id = fuzzCase.routing.kind === 'route' && fuzzCase.routing.id !== undefined ? Number(fuzzCase.routing.id) : undefined;
  const sent = readBody(fuzzCase);
  const value = 'value' in sent && isObject(sent.value) ? sent.value : {};
  const keys = (item: unknown): string => (isObject(item) ? Object.keys(item).join() : typeof item);
  switch (key) {
    case 'GET /products':
      return Array.isArray(data) && data.every((item) => keys(item) === 'id,name,description,price') ? undefined : 'not a list of products';
    case 'GET /produkte':
      return Array.isArray(data) && data.every((item) => keys(item) === 'id,name,price') ? undefined : 'not a list of produkte';
    case 'GET /products/:id':
      return isObject(data) && keys(data) === 'id,name,description,price' && data.id === id ? undefined : `not product ${String(id)}`;
    case 'GET /produkte/:id':
      return isObject(data) && keys(data) === 'id,name,price' && data.id === id ? undefined : `not produkt ${String(id)}`;
    case 'POST /products':
    case 'PUT /products/:id': {
      const same = isObject(data) && keys(data) === 'id,name,description,price' && data.name === value.name && data.description === value.description && data.price === value.price;
      const rightId = isObject(data) && Number.isSafeInteger(data.id) && (key === 'POST /products' || data.id === id);
      return same && rightId ? undefined : 'not the product as sent';
    }
    case 'POST /produkte':
      return isObject(data) && keys(data) === 'id' && Number.isSafeInteger(data.id) ? undefined : 'not {"data": {"id": N}}';
    case 'DELETE /produkte/:id':
      return r.body === JSON.stringify({ data: { id, deleted: true } }) ? undefined : 'not the deletion answer';
    case 'POST /login':
      return isObject(body) && keys(body) === 'token' && typeof body.token === 'string' && body.token.split('.').length === 3 ? undefined : 'not {"token": <jwt>}';
    case 'GET /me':
      return r.body === JSON.stringify({ data: { username: USERNAME, scheme: 'bearer' } }) ? undefined : 'not alice by bearer';
    case 'GET /health':
      return r.body === JSON.stringify({ status: 'ok' }) ? undefined : 'not {"status": "ok"}';
    default:
      return `no success is defined for ${key}`;
  }
}

export function answerMismatch(answer: Answer, fuzzCase: FuzzCase, r: Received, refs: References): string | undefined {
  const route = fuzzCase.routing.kind === 'route' ? fuzzCase.routing.route : undefined;
  switch (answer) {
    case 'success':
      return route === undefined ? 'no route' : successMismatch(fuzzCase, r, route);
    case 'route-404':
      return jsonError(fuzzCase, r, 404, refs.routeNotFound);
    case 'product-404':
      return jsonError(fuzzCase, r, 404, route === '/produkte/:id' ? refs.produktNotFound : refs.productNotFound);
    case 'method-405':
      return jsonError(fuzzCase, r, 405) ?? (route === undefined ? 'no route' : allowMismatch(r, route));
    case 'options-204':
      if (r.status !== 204) return `status ${r.status}`;
      return r.body !== '' ? 'a body' : route === undefined ? 'no route' : allowMismatch(r, route);
    case 'fields-400':
      return jsonError(fuzzCase, r, 400);
    case 'media-415':
      return jsonError(fuzzCase, r, 415);
    case 'too-large-413':
      return jsonError(fuzzCase, r, 413);
    case 'parse-error': {
      if (r.status !== 200) return `status ${r.status}`;
      const body = parsed(r.body);
      return isObject(body) && Object.keys(body).sort().join() === 'code,error' && body.code === 400 && filled(body.error) ? undefined : 'not {"error", "code": 400}';
    }
    case 'basic-401':
      return textFailure(r, 401, BASIC_CHALLENGE);
    case 'bearer-401':
      return textFailure(r, 401, BEARER_CHALLENGE);
    case 'key-403':
    case 'token-403':
      return textFailure(r, 403);
    case 'login-401':
      return textFailure(r, 401);
    case 'bad-request-400':
    case 'parser-400':
      return r.status === 400 ? undefined : `status ${r.status}`;
    case 'parser-431':
      return r.status === 431 ? undefined : `status ${r.status}`;
  }
}
