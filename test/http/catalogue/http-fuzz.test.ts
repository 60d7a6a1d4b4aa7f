/**
 * A seeded fuzz run over real HTTP (contract sections 2 to 5): a few thousand
 * generated requests (methods, targets, ids, credentials of every scheme,
 * content types, bodies, framing only a raw socket can send) against one
 * in-process service, most on keep-alive connections, some on sockets of
 * their own. Each answer is judged by an oracle read from the contract
 * (test/helpers/fuzz/fuzz-contract.ts names the answers it allows,
 * fuzz-judge.ts checks one), and every request must get a complete answer
 * in time, never a 5xx, with JSON bodies that parse.
 *
 * The seed is fixed so `npm test` is repeatable; FUZZ_SEED (decimal or 0x...)
 * and FUZZ_REQUESTS explore further, and every failure names the request by
 * its index, so a failure replays with the same seed.
 *
 * Raw requests that may end without the service's own answer: none (Node's
 * parser answers those it refuses itself, see fuzz-contract.ts). CONNECT is
 * not one of them: it must be answered like any other method the route lacks
 * (its own test below).
 */
import http from 'node:http';
import test, { type ExecutionContext } from 'ava';
import { login } from '../../helpers/api/auth-api.js';
import { generateCases } from '../../helpers/fuzz/fuzz-requests.js';
import { sendRaw, sendWithAgent, type Delivery } from '../../helpers/fuzz/fuzz-delivery.js';
import type { FuzzCase } from '../../helpers/fuzz/fuzz-case.js';
import { ALLOW, API_KEY, BODY_LIMIT, ENV, JWT_SECRET, PASSWORD, USERNAME, expectedAnswers, filled, goodPrice, isObject } from '../../helpers/fuzz/fuzz-contract.js';
import { answerMismatch, parsed, sortedMethods, type References } from '../../helpers/fuzz/fuzz-judge.js';
import { call, getJson, listProducts } from '../../helpers/api/product-api.js';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import { propertyRuns } from '../../helpers/property-runs.js';

function parseSeed(value: string | undefined): number {
  if (value === undefined || value === '') return 0xc0ffee;
  const seed = Number(value);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got ${value}`);
  return seed >>> 0;
}

const SEED = parseSeed(process.env.FUZZ_SEED);
const COUNT = Number(process.env.FUZZ_REQUESTS ?? propertyRuns(4000));
const SEED_TEXT = `seed 0x${SEED.toString(16)}`;
const REPLAY = `replay: FUZZ_SEED=0x${SEED.toString(16)} FUZZ_REQUESTS=${COUNT} npx ava test/http/catalogue/http-fuzz.test.ts`;
const REQUEST_TIMEOUT_MS = 3000;
const LANES = 8;
/** find-my-way's default maxParamLength: longer ids fell out of the router. */
const LONGEST_ROUTED_ID = 100;

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

// Node's HTTP server would close a CONNECT's socket without an answer; the
// service answers it like any other method a route lacks.
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

// find-my-way's maxParamLength (100 by default) would make a long id "Route not found":
// `/products/<150 zeros>7` is product 7, PATCH on it 405, OPTIONS 204.
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
