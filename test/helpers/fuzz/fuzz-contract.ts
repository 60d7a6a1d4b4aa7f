/**
 * The contract (sections 2 to 5) as the fuzz run's oracle reads it
 * (test/http/catalogue/http-fuzz.test.ts): the settings of the service under
 * fuzz, each route's methods and guard as tables, and for one generated
 * request the answers the contract allows, in the contract's order: the
 * route and method (404, 405 with Allow, OPTIONS 204), then protection, then
 * the body (415, 413, the parse error), then the id and the fields. Where the
 * store's state decides (200 or 404), both are allowed, so concurrent lanes
 * cannot make the oracle wrong; where the contract does not say (double
 * slashes...), no answer is named and only the run's general rules apply.
 *
 * Requests Node's parser refuses (bad Content-Length, bare LF, unknown
 * methods, a missing Host...) are answered by Node itself (400, or 431 for an
 * oversized header) and the oracle expects exactly that; a broken chunked
 * body gets Node's 400 or whatever the route answers before reading it.
 */
import { Buffer, isUtf8 } from 'node:buffer';
import type { FuzzCase, RouteName } from './fuzz-case.js';

export const BODY_LIMIT = 4096;

export const USERNAME = 'alice';
export const PASSWORD = 'Alice-Pass-7781';
export const API_KEY = 'Ci-Key-55aa66bb';
export const JWT_SECRET = 'fuzz-jwt-secret-0123456789abcdef-0123';
export const ENV = {
  AUTH_USERS: `${USERNAME}:${PASSWORD}`,
  API_KEYS: `ci=${API_KEY}`,
  JWT_SECRET,
  PROTECT: 'POST /products=bearer,PUT /products/:id=basic,DELETE /products/:id=apikey,DELETE /produkte/:id=bearer',
  // Thousands of wrong logins from one address must not turn into 429s.
  LOGIN_MAX_FAILURES: '0',
  BODY_LIMIT: String(BODY_LIMIT),
};

export const ALLOW: Readonly<Record<RouteName, readonly string[]>> = {
  '/products': ['GET', 'HEAD', 'POST', 'OPTIONS'],
  '/products/:id': ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'],
  '/produkte': ['GET', 'HEAD', 'POST', 'OPTIONS'],
  '/produkte/:id': ['GET', 'HEAD', 'DELETE', 'OPTIONS'],
  '/login': ['POST', 'OPTIONS'],
  '/me': ['GET', 'HEAD', 'OPTIONS'],
  '/health': ['GET', 'HEAD', 'OPTIONS'],
};

type Scheme = 'basic' | 'bearer' | 'apikey';
/** ENV.PROTECT, plus GET /me's default; HEAD follows GET. */
const GUARDS: ReadonlyMap<string, Scheme> = new Map([
  ['POST /products', 'bearer'],
  ['PUT /products/:id', 'basic'],
  ['DELETE /products/:id', 'apikey'],
  ['DELETE /produkte/:id', 'bearer'],
  ['GET /me', 'bearer'],
]);
const READS_BODY = new Set(['POST /products', 'PUT /products/:id', 'POST /produkte', 'POST /login']);

export type Answer =
  | 'success'
  | 'route-404'
  | 'product-404'
  | 'method-405'
  | 'options-204'
  | 'fields-400'
  | 'media-415'
  | 'too-large-413'
  | 'parse-error'
  | 'basic-401'
  | 'bearer-401'
  | 'key-403'
  | 'token-403'
  | 'login-401'
  | 'bad-request-400'
  | 'parser-400'
  | 'parser-431';

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const filled = (value: unknown): boolean => typeof value === 'string' && value !== '';
export const goodPrice = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value !== 0;
const validProduct = (value: unknown): boolean => isObject(value) && filled(value.name) && filled(value.description) && goodPrice(value.price);
const validProdukt = (value: unknown): boolean => isObject(value) && filled(value.name) && goodPrice(value.price);
const validLogin = (value: unknown): boolean => isObject(value) && value.username === USERNAME && value.password === PASSWORD;
export const routeKey = (fuzzCase: FuzzCase, route: RouteName): string => `${fuzzCase.method === 'HEAD' ? 'GET' : fuzzCase.method} ${route}`;

function refusal(scheme: Scheme, fuzzCase: FuzzCase): Answer | undefined {
  switch (scheme) {
    case 'basic':
      return fuzzCase.authorization === 'basic-good' ? undefined : 'basic-401';
    case 'bearer':
      if (fuzzCase.authorization === 'bearer-good') return undefined;
      return fuzzCase.authorization === 'bearer-bad' ? 'token-403' : 'bearer-401';
    case 'apikey':
      return fuzzCase.apiKey === 'good' ? undefined : 'key-403';
  }
}

/** The request body as the contract reads it: 415, 413, the parse error, or a value (`{}` for none). */
export function readBody(fuzzCase: FuzzCase): { readonly value: unknown } | { readonly answers: readonly Answer[] } {
  const tooLarge = Math.max(fuzzCase.body?.length ?? 0, fuzzCase.declaredLength ?? 0) > BODY_LIMIT;
  // The contract lists 413 before 415 without ranking them; either answer is fair when both apply.
  if (!fuzzCase.contentType.json) return { answers: tooLarge ? ['media-415', 'too-large-413'] : ['media-415'] };
  if (tooLarge) return { answers: ['too-large-413'] };
  if (fuzzCase.brokenBody) return { answers: ['parser-400'] };
  const body = fuzzCase.body ?? Buffer.alloc(0);
  if (body.length === 0) return { value: {} };
  if (!isUtf8(body)) return { answers: ['parse-error'] };
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return { answers: ['parse-error'] };
  }
}

/**
 * What the contract allows for this request; undefined where it does not say
 * (general rules only). A broken chunked body may also be Node's 400, which
 * wins whenever the parser reaches the body before the route has answered.
 */
export function expectedAnswers(fuzzCase: FuzzCase): readonly Answer[] | undefined {
  const answers = contractAnswers(fuzzCase);
  return fuzzCase.brokenBody && answers !== undefined ? [...answers, 'parser-400'] : answers;
}

function contractAnswers(fuzzCase: FuzzCase): readonly Answer[] | undefined {
  if (fuzzCase.parserRejects !== undefined) return [fuzzCase.parserRejects === 431 ? 'parser-431' : 'parser-400'];
  const routing = fuzzCase.routing;
  if (routing.kind === 'unspecified') return undefined;
  if (routing.kind === 'none') return ['route-404'];
  if (routing.kind === 'not-a-path') return ['route-404', 'bad-request-400'];
  if (fuzzCase.method === 'OPTIONS') return ['options-204'];
  if (!ALLOW[routing.route].includes(fuzzCase.method)) return ['method-405'];
  const key = routeKey(fuzzCase, routing.route);
  const scheme = GUARDS.get(key);
  const refused = scheme === undefined ? undefined : refusal(scheme, fuzzCase);
  if (refused !== undefined) return [refused];
  let value: unknown = undefined;
  if (READS_BODY.has(key)) {
    const read = readBody(fuzzCase);
    if ('answers' in read) return read.answers;
    value = read.value;
  }
  // Only decimal digits can name a product; whether one does is the store's state.
  const digits = routing.id !== undefined && /^[0-9]+$/.test(routing.id);
  switch (key) {
    case 'POST /products':
      return [validProduct(value) ? 'success' : 'fields-400'];
    case 'POST /produkte':
      return [validProdukt(value) ? 'success' : 'fields-400'];
    case 'POST /login':
      return [validLogin(value) ? 'success' : 'login-401'];
    case 'PUT /products/:id':
      return digits ? [validProduct(value) ? 'success' : 'fields-400', 'product-404'] : ['product-404'];
    case 'GET /products/:id':
    case 'DELETE /products/:id':
    case 'GET /produkte/:id':
    case 'DELETE /produkte/:id':
      return digits ? ['success', 'product-404'] : ['product-404'];
    default:
      return ['success'];
  }
}
