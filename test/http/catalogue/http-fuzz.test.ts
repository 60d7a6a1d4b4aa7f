/**
 * A seeded fuzz run over real HTTP (contract sections 2 to 5): a few thousand
 * generated requests (methods, targets, ids, credentials of every scheme,
 * content types, bodies, framing only a raw socket can send) against one
 * in-process service, most on keep-alive connections, some on sockets of
 * their own. Each answer is judged by an oracle read from the contract: the
 * route and method (404, 405 with Allow, OPTIONS 204), then protection, then
 * the body (415, 413, the parse error), then the id and the fields. Where the
 * store's state decides (200 or 404), both are allowed, so concurrent lanes
 * cannot make the oracle wrong.
 *
 * The seed is fixed so `npm test` is repeatable; FUZZ_SEED (decimal or 0x...)
 * and FUZZ_REQUESTS explore further, and every failure names the request by
 * its index, so a failure replays with the same seed.
 *
 * Raw requests that may end without the service's own answer: none. Requests
 * Node's parser refuses (bad Content-Length, bare LF, unknown methods, a
 * missing Host...) are answered by Node itself (400, or 431 for an oversized
 * header) before the connection closes, and the oracle expects exactly that;
 * a broken chunked body gets Node's 400 or whatever the route answers before
 * reading it (404, 405, 401...), whichever comes first. CONNECT is not one of them: it must be answered like any other method the
 * route lacks (its own test below).
 */
import { Buffer, isUtf8 } from 'node:buffer';
import http from 'node:http';
import test, { type ExecutionContext } from 'ava';
import { BASIC_CHALLENGE, BEARER_CHALLENGE, login } from '../../helpers/api/auth-api.js';
import { generateCases } from '../../helpers/fuzz/fuzz-requests.js';
import { sendRaw, sendWithAgent, type Delivery } from '../../helpers/fuzz/fuzz-delivery.js';
import type { FuzzCase, RouteName } from '../../helpers/fuzz/fuzz-case.js';
import { call, getJson, JSON_TYPE, listProducts } from '../../helpers/api/product-api.js';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';

function parseSeed(value: string | undefined): number {
  if (value === undefined || value === '') return 0xc0ffee;
  const seed = Number(value);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got ${value}`);
  return seed >>> 0;
}

const SEED = parseSeed(process.env.FUZZ_SEED);
const COUNT = Number(process.env.FUZZ_REQUESTS ?? 4000);
const SEED_TEXT = `seed 0x${SEED.toString(16)}`;
const REPLAY = `replay: FUZZ_SEED=0x${SEED.toString(16)} FUZZ_REQUESTS=${COUNT} npx ava test/http/catalogue/http-fuzz.test.ts`;
const BODY_LIMIT = 4096;
const REQUEST_TIMEOUT_MS = 3000;
const LANES = 8;
/** find-my-way's default maxParamLength: longer ids fell out of the router. */
const LONGEST_ROUTED_ID = 100;

const USERNAME = 'alice';
const PASSWORD = 'Alice-Pass-7781';
const API_KEY = 'Ci-Key-55aa66bb';
const JWT_SECRET = 'fuzz-jwt-secret-0123456789abcdef-0123';
const ENV = {
  AUTH_USERS: `${USERNAME}:${PASSWORD}`,
  API_KEYS: `ci=${API_KEY}`,
  JWT_SECRET,
  PROTECT: 'POST /products=bearer,PUT /products/:id=basic,DELETE /products/:id=apikey,DELETE /produkte/:id=bearer',
  // Thousands of wrong logins from one address must not turn into 429s.
  LOGIN_MAX_FAILURES: '0',
  BODY_LIMIT: String(BODY_LIMIT),
};

// --- the contract, as tables ---------------------------------------------------------

const ALLOW: Readonly<Record<RouteName, readonly string[]>> = {
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

type Answer =
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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const filled = (value: unknown): boolean => typeof value === 'string' && value !== '';
const goodPrice = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value !== 0;
const validProduct = (value: unknown): boolean => isObject(value) && filled(value.name) && filled(value.description) && goodPrice(value.price);
const validProdukt = (value: unknown): boolean => isObject(value) && filled(value.name) && goodPrice(value.price);
const validLogin = (value: unknown): boolean => isObject(value) && value.username === USERNAME && value.password === PASSWORD;
const routeKey = (fuzzCase: FuzzCase, route: RouteName): string => `${fuzzCase.method === 'HEAD' ? 'GET' : fuzzCase.method} ${route}`;

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
function readBody(fuzzCase: FuzzCase): { readonly value: unknown } | { readonly answers: readonly Answer[] } {
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
function expectedAnswers(fuzzCase: FuzzCase): readonly Answer[] | undefined {
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

// --- judging one response ------------------------------------------------------------------

type Received = Extract<Delivery, { kind: 'response' }>;

/** Bodies the service gives for a route it does not have and for products that do not exist. */
interface References {
  readonly routeNotFound: string;
  readonly productNotFound: string;
  readonly produktNotFound: string;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const sortedMethods = (value: string | undefined): string =>
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

function answerMismatch(answer: Answer, fuzzCase: FuzzCase, r: Received, refs: References): string | undefined {
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

// --- the run ---------------------------------------------------------------------------------

interface Exchange {
  readonly fuzzCase: FuzzCase;
  readonly delivery: Delivery;
}

let service: ServiceUnderTest | undefined;
let refs: References;
let exchanges: Exchange[] = [];
let runMs = 0;

test.before(async () => {
  service = await startInProcess({ env: ENV });
  const port = service.port;
  const references = await Promise.all(['/nope', '/products/999999', '/produkte/999999'].map((path) => getJson(service as ServiceUnderTest, path)));
  const [routeNotFound, productNotFound, produktNotFound] = references.map((response) => {
    if (response.status !== 404) throw new Error(`reference request answered ${response.status}`);
    return response.text;
  });
  refs = { routeNotFound: routeNotFound ?? '', productNotFound: productNotFound ?? '', produktNotFound: produktNotFound ?? '' };
  const token = await login(service, USERNAME, PASSWORD);
  const cases = generateCases({ seed: SEED, count: COUNT, bodyLimit: BODY_LIMIT, credentials: { username: USERNAME, password: PASSWORD, apiKey: API_KEY, jwtSecret: JWT_SECRET, token } });

  const agent = new http.Agent({ keepAlive: true, maxSockets: LANES });
  const started = performance.now();
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let fuzzCase = cases[next++]; fuzzCase !== undefined; fuzzCase = cases[next++]) {
      const delivery =
        fuzzCase.transport === 'raw' && fuzzCase.raw !== undefined
          ? await sendRaw(port, fuzzCase.raw, fuzzCase.method, REQUEST_TIMEOUT_MS)
          : await sendWithAgent(agent, port, fuzzCase, REQUEST_TIMEOUT_MS);
      exchanges.push({ fuzzCase, delivery });
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  runMs = performance.now() - started;
  agent.destroy();
  exchanges = exchanges.sort((a, b) => a.fuzzCase.index - b.fuzzCase.index);
});

test.after.always(async () => {
  await service?.stop();
});

// --- reporting -------------------------------------------------------------------------------

function shortTarget(target: string): string {
  return target.length <= 90 ? target : `${target.slice(0, 40)}…(${target.length} chars)…${target.slice(-20)}`;
}

function describe({ fuzzCase, delivery }: Exchange): string {
  const request = `#${fuzzCase.index} ${fuzzCase.method} ${shortTarget(fuzzCase.target)} [${fuzzCase.transport}; ${fuzzCase.label}]`;
  if (delivery.kind !== 'response') return `${request} → ${delivery.kind === 'timeout' ? `no answer in ${REQUEST_TIMEOUT_MS} ms` : `no response (${delivery.detail})`}`;
  return `${request} → ${delivery.status} ${JSON.stringify(delivery.body.slice(0, 80))}`;
}

/** One assertion for a rule: the first violations are shown in full, the count in the message. */
function assertNone(t: ExecutionContext, rule: string, violations: readonly string[]): void {
  if (violations.length > 0) t.log(`${violations.length} requests broke "${rule}"; ${REPLAY}`);
  t.deepEqual(violations.slice(0, 12), [], `${violations.length} of ${exchanges.length} requests broke "${rule}"`);
}

function oracleViolations(selected: readonly Exchange[]): string[] {
  const violations: string[] = [];
  for (const exchange of selected) {
    const { fuzzCase, delivery } = exchange;
    const answers = expectedAnswers(fuzzCase);
    if (delivery.kind !== 'response') {
      violations.push(`${describe(exchange)}: expected ${answers?.join(' or ') ?? 'an answer'}`);
      continue;
    }
    if (answers === undefined) continue;
    const reasons = answers.map((answer) => answerMismatch(answer, fuzzCase, delivery, refs));
    if (reasons.every((reason) => reason !== undefined)) {
      violations.push(`${describe(exchange)}: expected ${answers.map((answer, index) => `${answer} (${reasons[index] ?? ''})`).join(' or ')}`);
    }
  }
  return violations;
}

const isConnect = ({ fuzzCase }: Exchange): boolean => fuzzCase.method === 'CONNECT';
const hasLongId = ({ fuzzCase }: Exchange): boolean => fuzzCase.routing.kind === 'route' && (fuzzCase.routing.id?.length ?? 0) > LONGEST_ROUTED_ID;

// --- the rules -------------------------------------------------------------------------------

test(`fuzz ${SEED_TEXT}: ${COUNT} requests were sent and answered (summary in the log)`, (t) => {
  const tally = (name: (exchange: Exchange) => string): string => {
    const counts = new Map<string, number>();
    for (const exchange of exchanges) counts.set(name(exchange), (counts.get(name(exchange)) ?? 0) + 1);
    return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([label, count]) => `${label} ${count}`).join(', ');
  };
  const outcome = ({ delivery }: Exchange): string => (delivery.kind === 'response' ? `${String(delivery.status).charAt(0)}xx` : delivery.kind);
  t.log(`${SEED_TEXT}, ${exchanges.length} requests in ${Math.round(runMs)} ms on ${LANES} lanes`);
  t.log(`by outcome: ${tally(outcome)}`);
  t.log(`by status: ${tally(({ delivery }) => (delivery.kind === 'response' ? String(delivery.status) : delivery.kind))}`);
  t.log(`by transport: ${tally(({ fuzzCase }) => fuzzCase.transport)}`);
  t.log(`by method: ${tally(({ fuzzCase }) => fuzzCase.method)}`);
  t.log(`by target: ${tally(({ fuzzCase: { routing } }) => (routing.kind === 'route' ? routing.route : routing.kind))}`);
  t.log(`judged by the oracle: ${exchanges.filter(({ fuzzCase }) => expectedAnswers(fuzzCase) !== undefined).length}; CONNECT: ${exchanges.filter(isConnect).length}; ids over ${LONGEST_ROUTED_ID} characters: ${exchanges.filter(hasLongId).length}; refused by Node's parser: ${exchanges.filter(({ fuzzCase }) => fuzzCase.parserRejects !== undefined).length}`);
  t.is(exchanges.length, COUNT);
});

test(`fuzz ${SEED_TEXT}: no response is a 5xx`, (t) => {
  assertNone(t, 'no 5xx', exchanges.filter(({ delivery }) => delivery.kind === 'response' && delivery.status >= 500).map(describe));
});

test(`fuzz ${SEED_TEXT}: no request hangs (each answered within ${REQUEST_TIMEOUT_MS} ms)`, (t) => {
  assertNone(t, 'no hangs', exchanges.filter(({ delivery }) => delivery.kind === 'timeout').map(describe));
});

test(`fuzz ${SEED_TEXT}: every request but CONNECT gets a complete response, malformed ones included`, (t) => {
  const broken = exchanges.filter((exchange) => !isConnect(exchange) && (exchange.delivery.kind === 'no-response' || (exchange.delivery.kind === 'response' && !exchange.delivery.complete)));
  assertNone(t, 'a complete response', broken.map(describe));
});

test(`fuzz ${SEED_TEXT}: every JSON-typed response body parses`, (t) => {
  const unparsable = exchanges.filter(({ fuzzCase, delivery }) => {
    if (delivery.kind !== 'response' || !(delivery.headers['content-type'] ?? '').includes('json')) return false;
    if (fuzzCase.method === 'HEAD' || delivery.status === 204) return delivery.body !== '';
    return parsed(delivery.body) === undefined;
  });
  assertNone(t, 'JSON bodies parse', unparsable.map(describe));
});

test(`fuzz ${SEED_TEXT}: every answer is one the contract allows (ids up to ${LONGEST_ROUTED_ID} characters, no CONNECT)`, (t) => {
  assertNone(t, 'the oracle', oracleViolations(exchanges.filter((exchange) => !isConnect(exchange) && !hasLongId(exchange))));
});

// Issue: "CONNECT gets a closed socket with no answer; answer it like any other
// unsupported method". Fails until that fix is merged: today Node closes the socket.
test(`fuzz ${SEED_TEXT}: CONNECT is answered like any other method a route lacks: 405 with Allow on a route, 404 elsewhere, never a silent close`, (t) => {
  const connects = exchanges.filter(isConnect);
  t.true(connects.length > 0, 'the seed sent no CONNECT');
  const violations = oracleViolations(connects);
  // Where the target's routing is unspecified (double slashes...), still an answer: 404 or 405.
  for (const exchange of connects) {
    const { delivery } = exchange;
    if (expectedAnswers(exchange.fuzzCase) !== undefined || delivery.kind !== 'response') continue;
    if (!delivery.complete || (delivery.status !== 404 && delivery.status !== 405)) violations.push(`${describe(exchange)}: expected a complete 404 or 405`);
  }
  assertNone(t, 'CONNECT is answered', violations);
});

// The fix for find-my-way's maxParamLength (100): `/products/<150 zeros>7` is product 7,
// PATCH on it 405, OPTIONS 204. Fails until that fix is merged: today such ids are "Route not found".
test(`fuzz ${SEED_TEXT}: ids longer than ${LONGEST_ROUTED_ID} characters are routed like short ones (200/404 product, 405, 204, auth, body rules)`, (t) => {
  const long = exchanges.filter(hasLongId);
  t.true(long.length > 0, 'the seed sent no long id');
  assertNone(t, 'long ids are routed', oracleViolations(long));
});

// The same fix, stated exactly where the fuzz can only allow 200 or 404 (a lane may have deleted the product).
test(`fuzz ${SEED_TEXT}: afterwards, /products/<150 zeros>N answers exactly as /products/N; PATCH on it is 405 with Allow, OPTIONS 204`, async (t) => {
  const running = service as ServiceUnderTest;
  const products = await listProducts(running);
  t.true(products.length > 0, 'the run left no product to read');
  const id = products[0]?.id ?? 7;
  const longPath = `/products/${'0'.repeat(150)}${String(id)}`;
  const short = await getJson(running, `/products/${String(id)}`);
  const long = await getJson(running, longPath);
  t.is(short.status, 200);
  t.is(long.status, short.status, `GET ${shortTarget(longPath)}: ${long.text}`);
  t.is(long.text, short.text);
  const patch = await call(running, 'PATCH', longPath);
  t.is(patch.status, 405, `PATCH: ${patch.text}`);
  t.is(sortedMethods(patch.headers.get('allow') ?? undefined), sortedMethods(ALLOW['/products/:id'].join(',')));
  const options = await call(running, 'OPTIONS', longPath);
  t.is(options.status, 204, `OPTIONS: ${options.text}`);
  t.is(sortedMethods(options.headers.get('allow') ?? undefined), sortedMethods(ALLOW['/products/:id'].join(',')));
});

test(`fuzz ${SEED_TEXT}: afterwards /health is ok, the lists answer with well-formed items, and nothing was logged as an error`, async (t) => {
  const running = service as ServiceUnderTest;
  const health = await getJson(running, '/health');
  t.is(health.status, 200);
  t.deepEqual(health.body, { status: 'ok' });

  const products = await getJson(running, '/products');
  t.is(products.status, 200);
  const list = isObject(products.body) ? products.body.data : undefined;
  t.true(Array.isArray(list), products.text.slice(0, 200));
  for (const product of Array.isArray(list) ? (list as unknown[]) : []) {
    t.true(isObject(product) && Object.keys(product).join() === 'id,name,description,price' && Number.isSafeInteger(product.id) && filled(product.name) && filled(product.description) && goodPrice(product.price), JSON.stringify(product));
  }

  const produkte = await getJson(running, '/produkte');
  t.is(produkte.status, 200);
  t.true(isObject(produkte.body) && Array.isArray(produkte.body.data));

  const errorLines = running.stderr().split('\n').filter((line) => /"level":"(error|fatal)"|store worker lost/.test(line));
  t.deepEqual(errorLines, []);
});
