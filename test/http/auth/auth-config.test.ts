/**
 * Protection settings are checked at start-up (contract sections 1 and 5):
 * each bad one stops the service with exit code 2 and one line on stderr
 * naming the setting, a line that never quotes a password, key or secret.
 * Checked in process, at the steps the binary takes (helpers/service/start-up-refusal.ts);
 * test/start-up-refusals.test.ts runs the binary for a bad PROTECT once.
 */
import test from 'ava';
import { Buffer } from 'node:buffer';
import { call, ownService } from '../../helpers/api/product-api.js';
import { basicAuth } from '../../helpers/api/auth-api.js';
import { assertRefused } from '../../helpers/service/start-up-refusal.js';

/** Good credentials for every scheme; each case below breaks one thing. */
const BASE: Readonly<Record<string, string>> = {
  PORT: '0',
  AUTH_USERS: 'alice:Alice-Pass-7781,bob:Bob-Pass-9902',
  API_KEYS: 'ci=Ci-Key-55aa66bb',
  JWT_SECRET: 'Jwt-Secret-0123456789-abcdefghijklmnop',
};

interface BadSetting {
  readonly title: string;
  /** Settings on top of BASE; `undefined` removes one. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly args?: readonly string[];
  readonly names: RegExp;
}

const VALID_SALT = Buffer.alloc(16, 7).toString('base64url');
const VALID_HASH = Buffer.alloc(32, 9).toString('base64url');

const BAD_SETTINGS: readonly BadSetting[] = [
  { title: 'an unknown scheme in PROTECT', env: { PROTECT: 'GET /products=oauth' }, names: /PROTECT/ },
  { title: 'an unknown scheme beside good rules', env: { PROTECT: 'POST /products=basic,DELETE /products/:id=digest' }, names: /PROTECT/ },
  { title: 'an unknown method in PROTECT (PATCH)', env: { PROTECT: 'PATCH /products/:id=basic' }, names: /PROTECT/ },
  { title: 'HEAD as a PROTECT method (it follows GET)', env: { PROTECT: 'HEAD /products=basic' }, names: /PROTECT/ },
  { title: 'an unknown route in PROTECT', env: { PROTECT: 'GET /orders=basic' }, names: /PROTECT/ },
  { title: 'a route spelt with another parameter name', env: { PROTECT: 'GET /products/:productId=basic' }, names: /PROTECT/ },
  { title: 'a route without a leading slash', env: { PROTECT: 'GET products=basic' }, names: /PROTECT/ },
  { title: 'a route that has no such method (PUT /produkte/:id)', env: { PROTECT: 'PUT /produkte/:id=basic' }, names: /PROTECT/ },
  { title: 'a route that has no such method (POST /me)', env: { PROTECT: 'POST /me=bearer' }, names: /PROTECT/ },
  { title: 'POST /login in PROTECT', env: { PROTECT: 'POST /login=basic' }, names: /PROTECT/ },
  { title: '* /login in PROTECT', env: { PROTECT: '* /login=apikey' }, names: /PROTECT/ },
  { title: 'GET /health in PROTECT', env: { PROTECT: 'GET /health=basic' }, names: /PROTECT/ },
  { title: 'a malformed rule without "="', env: { PROTECT: 'GET /products basic' }, names: /PROTECT/ },
  { title: 'a malformed rule without a method', env: { PROTECT: '/products=basic' }, names: /PROTECT/ },
  { title: 'a malformed rule without a scheme', env: { PROTECT: 'GET /products=' }, names: /PROTECT/ },
  { title: 'the same rule twice', env: { PROTECT: 'GET /products=basic,GET /products=apikey' }, names: /PROTECT/ },
  { title: 'basic without AUTH_USERS', env: { AUTH_USERS: undefined, PROTECT: 'POST /products=basic' }, names: /AUTH_USERS/ },
  { title: 'basic on * without AUTH_USERS', env: { AUTH_USERS: undefined, PROTECT: '* *=basic' }, names: /AUTH_USERS/ },
  { title: 'bearer without AUTH_USERS (nobody could log in)', env: { AUTH_USERS: undefined, PROTECT: 'DELETE /products/:id=bearer' }, names: /AUTH_USERS/ },
  { title: 'apikey without API_KEYS', env: { API_KEYS: undefined, PROTECT: 'GET /produkte=apikey' }, names: /API_KEYS/ },
  { title: 'an AUTH_USERS entry without a colon', env: { AUTH_USERS: 'alice:Alice-Pass-7781,bob' }, names: /AUTH_USERS/ },
  { title: 'an AUTH_USERS entry with an empty password', env: { AUTH_USERS: 'alice:' }, names: /AUTH_USERS/ },
  { title: 'an AUTH_USERS entry with an empty user name', env: { AUTH_USERS: ':Nameless-Pass-4411' }, names: /AUTH_USERS/ },
  { title: 'the same user twice in AUTH_USERS', env: { AUTH_USERS: 'alice:Alice-Pass-7781,alice:Alice-Other-3344' }, names: /AUTH_USERS/ },
  { title: 'a malformed scrypt hash (salt and hash too short)', env: { AUTH_USERS: 'alice:scrypt.14.8.5.c2FsdA.aGFzaA' }, names: /AUTH_USERS/ },
  { title: 'a malformed scrypt hash (cost out of range)', env: { AUTH_USERS: `alice:scrypt.99.8.5.${VALID_SALT}.${VALID_HASH}` }, names: /AUTH_USERS/ },
  { title: 'a malformed scrypt hash (a part missing)', env: { AUTH_USERS: `alice:scrypt.14.8.5.${VALID_SALT}` }, names: /AUTH_USERS/ },
  { title: 'an API_KEYS entry with an empty key', env: { API_KEYS: 'ci=Ci-Key-55aa66bb,ops=' }, names: /API_KEYS/ },
  { title: 'an API_KEYS entry with an empty label', env: { API_KEYS: '=Ops-Key-77cc88dd' }, names: /API_KEYS/ },
  { title: 'a bare API_KEYS key ending in "=" (read as a label with no key): the line says a key with "=" needs a label', env: { API_KEYS: 'T3BzLUtleQ=' }, names: /API_KEYS.*needs a label first/ },
  { title: 'the same API key label twice', env: { API_KEYS: 'ci=Ci-Key-55aa66bb,ci=Ci-Key-99ee00ff' }, names: /API_KEYS/ },
  { title: 'a JWT_SECRET of 31 bytes', env: { JWT_SECRET: 'Short-Secret-31-bytes-long-xxxx' }, names: /JWT_SECRET/ },
  { title: 'a JWT_SECRET of a few bytes', env: { JWT_SECRET: 'Tiny-Secret' }, names: /JWT_SECRET/ },
  { title: 'JWT_TTL of 0', env: { JWT_TTL: '0' }, names: /JWT_TTL/ },
  { title: 'a negative JWT_TTL', env: { JWT_TTL: '-5' }, names: /JWT_TTL/ },
  { title: 'a fractional JWT_TTL', env: { JWT_TTL: '1.5' }, names: /JWT_TTL/ },
  { title: 'a JWT_TTL with a unit', env: { JWT_TTL: '1h' }, names: /JWT_TTL/ },
  { title: 'a LOGIN_MAX_FAILURES that is a word', env: { LOGIN_MAX_FAILURES: 'many' }, names: /LOGIN_MAX_FAILURES/ },
  { title: 'a fractional LOGIN_MAX_FAILURES', env: { LOGIN_MAX_FAILURES: '2.5' }, names: /LOGIN_MAX_FAILURES/ },
  { title: 'a negative LOGIN_MAX_FAILURES', env: { LOGIN_MAX_FAILURES: '-1' }, names: /LOGIN_MAX_FAILURES/ },
  { title: 'a bad PROTECT given as --protect', env: {}, args: ['--port', '0', '--protect', 'GET /products=oauth'], names: /PROTECT/ },
  { title: 'a short secret given as --jwt-secret', env: {}, args: ['--port', '0', '--jwt-secret', 'Flag-Secret-short'], names: /JWT_SECRET/ },
];

function settingsFor(env: BadSetting['env']): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...BASE, ...env })) if (value !== undefined) merged[name] = value;
  return merged;
}

for (const { title, env, args, names } of BAD_SETTINGS) {
  test(`start-up refuses ${title}: one line naming the setting, no secret quoted`, (t) => {
    assertRefused(t, { env: settingsFor(env), args: args ?? [] }, names);
  });
}

test('a JWT_SECRET of exactly 32 bytes, every scheme with its credentials, and LOGIN_MAX_FAILURES=0 start fine', async (t) => {
  const service = await ownService(t, {
    env: { ...BASE, JWT_SECRET: 'Exactly-32-bytes-secret-abcdefgh', JWT_TTL: '60', LOGIN_MAX_FAILURES: '0', PROTECT: 'POST /products=basic,GET /produkte=apikey,DELETE /products/:id=bearer' },
  });
  t.is((await call(service, 'GET', '/produkte/1', undefined, basicAuth('alice', 'Alice-Pass-7781'))).status, 200);
  t.is((await call(service, 'POST', '/products', { json: {} })).status, 401);
});
