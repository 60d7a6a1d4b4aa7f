/**
 * The settings of section 1 and ours, read from variables and flags (a flag
 * wins) and checked at start-up: each bad one stops the service with exit
 * code 2 and one clear line on stderr naming it. Checked in process, at the
 * steps the binary takes (helpers/service/start-up-refusal.ts); the binary itself is
 * run once per kind of refusal in test/process/start-up-process.test.ts.
 */
import test from 'ava';
import { startInProcess } from '../../helpers/service/service.js';
import { tempDir } from '../../helpers/faults/journal-files.js';
import { assertRefused } from '../../helpers/service/start-up-refusal.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { settingLookup } from '../../../src/config/settings.js';

/** Each bad setting stops start-up: one clear line on stderr naming it. */
const badSettings: readonly { readonly title: string; readonly env?: Record<string, string>; readonly args?: string[]; readonly names: RegExp; readonly secrets?: string[] }[] = [
  { title: 'a port that is not a number', env: { PORT: 'abc' }, names: /PORT/ },
  { title: 'a port out of range', env: { PORT: '70000' }, names: /PORT/ },
  { title: 'a bad port given as a flag', args: ['--port', 'x1'], names: /PORT/ },
  { title: 'a bad port given as --port=value', args: ['--port=-1'], names: /PORT/ },
  { title: 'a body limit of zero', env: { PORT: '0', BODY_LIMIT: '0' }, names: /BODY_LIMIT/ },
  { title: 'a body limit that is not an integer', args: ['--port', '0', '--body-limit', '1.5'], names: /BODY_LIMIT/ },
  { title: 'a STRICT value that is neither on nor off', env: { PORT: '0', STRICT: 'maybe' }, names: /STRICT/ },
  { title: 'an unknown log level', env: { PORT: '0', LOG_LEVEL: 'loud' }, names: /LOG_LEVEL/ },
  { title: 'a base path without a leading slash', env: { PORT: '0', BASE_PATH: 'api' }, names: /BASE_PATH/ },
  { title: 'a host with spaces', env: { PORT: '0', HOST: 'my host' }, names: /HOST/ },
  { title: 'TLS_CERT without TLS_KEY', env: { PORT: '0', TLS_CERT: '/etc/hostname' }, names: /TLS_CERT and TLS_KEY/ },
  { title: 'TLS files that do not exist', env: { PORT: '0', TLS_CERT: '/nonexistent/cert.pem', TLS_KEY: '/nonexistent/key.pem' }, names: /TLS_CERT/ },
  { title: 'a store queue limit of zero', env: { PORT: '0', STORE_QUEUE_LIMIT: '0' }, names: /STORE_QUEUE_LIMIT/ },
  { title: 'an unknown flag', args: ['--port', '0', '--colour', 'blue'], names: /--colour/ },
  { title: 'a flag without its value', args: ['--port'], names: /--port needs a value/ },
  // A misspelt secret's flag, or a stray word after one: what is refused may be a secret, so it is named, never quoted.
  { title: 'a misspelt --jwt-secret=value', args: ['--port', '0', '--jwt-secrte=Misspelt-Secret-0123456789-abcdef'], names: /unknown argument "--jwt-secrte" /, secrets: ['Misspelt-Secret-0123456789-abcdef'] },
  { title: 'a stray word after --auth-users', args: ['--port', '0', '--auth-users', 'alice:Alice-Pass-7781', 'bob:Bob-Pass-9902'], names: /argument 5 is not a flag/, secrets: ['Bob-Pass-9902'] },
  { title: 'a headers timeout of zero', env: { PORT: '0', HEADERS_TIMEOUT: '0' }, names: /HEADERS_TIMEOUT/ },
  { title: 'a request timeout with a unit', env: { PORT: '0', REQUEST_TIMEOUT: '30s' }, names: /REQUEST_TIMEOUT/ },
  { title: 'a headers timeout longer than the request timeout', env: { PORT: '0', HEADERS_TIMEOUT: '20', REQUEST_TIMEOUT: '10' }, names: /HEADERS_TIMEOUT.*REQUEST_TIMEOUT/ },
  { title: 'a negative keep-alive timeout', args: ['--port', '0', '--keep-alive-timeout', '-5'], names: /KEEP_ALIVE_TIMEOUT/ },
  { title: 'a connection cap that is not a number', env: { PORT: '0', MAX_CONNECTIONS: 'many' }, names: /MAX_CONNECTIONS/ },
  { title: 'a fractional shutdown grace', env: { PORT: '0', SHUTDOWN_GRACE: '2.5' }, names: /SHUTDOWN_GRACE/ },
  { title: 'a hash concurrency of zero', env: { PORT: '0', HASH_CONCURRENCY: '0' }, names: /HASH_CONCURRENCY/ },
  { title: 'a negative hash queue', args: ['--port', '0', '--hash-queue-limit=-1'], names: /HASH_QUEUE_LIMIT/ },
  { title: 'a TRUST_PROXY range that is not a CIDR range', env: { PORT: '0', TRUST_PROXY: '10.0.0.0/33' }, names: /TRUST_PROXY.*10\.0\.0\.0\/33/ },
  { title: 'a TRUST_PROXY entry that is not an address', env: { PORT: '0', TRUST_PROXY: 'loopback,proxy.example' }, names: /TRUST_PROXY.*proxy\.example/ },
  { title: 'a negative TRUST_PROXY hop count given as a flag', args: ['--port', '0', '--trust-proxy=-1'], names: /TRUST_PROXY/ },
  // The value is quoted in the line: its line breaks and terminal escapes are escaped, so that the refusal stays one plain line.
  { title: 'a value with line breaks and a terminal escape in it', env: { PORT: '1\n2\r\n3\u001b[2J' }, names: /PORT must be an integer from 0 to 65535 \(got "1\\n2\\r\\n3\\u001b\[2J"\)/ },
];

for (const { title, env, args, names, secrets } of badSettings) {
  test(`start-up refuses ${title}`, (t) => {
    assertRefused(t, { ...(env && { env }), args: args ?? [] }, names, secrets);
  });
}

test('a flag beats the environment variable', async (t) => {
  const service = await startInProcess({ env: { PORT: 'not-a-port', BASE_PATH: '/env' }, args: ['--port', '0', '--base-path', '/flag'] });
  t.teardown(() => service.stop());
  t.regex(service.url, /\/flag$/);
  t.is((await fetch(`${service.url}/health`)).status, 200);
});

test('settings come from environment variables when no flag is given', async (t) => {
  const service = await startInProcess({ env: { BASE_PATH: '/from-env' } });
  t.teardown(() => service.stop());
  t.regex(service.url, /\/from-env$/);
  t.is((await fetch(`${service.url}/products/1`)).status, 200);
});

// DATABASE_URL, LEASE_SECONDS, CLUSTER_SECRET and CLUSTER_URL (issue 17), checked before any
// PostgreSQL is asked; no line repeats the database password or the cluster secret.
const DATABASE_URL = 'postgres://u:secret-pw@127.0.0.1:5432/db';
const SECRET = 'a-cluster-secret-of-at-least-32-bytes';

test('DATABASE_URL and DATA_DIR together are refused', (t) => {
  assertRefused(t, { env: { DATABASE_URL, DATA_DIR: tempDir(t, 'pg-and-dir-') } }, /DATABASE_URL and DATA_DIR cannot both be set/);
});

const DATABASE_REFUSALS: readonly (readonly [title: string, env: Readonly<Record<string, string>>, names: RegExp])[] = [
  ['a DATABASE_URL that is not postgres://', { DATABASE_URL: 'http://u:secret-pw@example.com/db' }, /DATABASE_URL must be a postgres:\/\/ URL/],
  // libpq takes passwords from the query string too: the line shows them masked.
  ['a DATABASE_URL without a host, its passwords in the query', { DATABASE_URL: 'postgres:///db?sslpassword=Key-Pass-1a2b3c&password=Query-Pass-7c8d9e' }, /DATABASE_URL must name a host \(got postgres:\/\/\/db\?sslpassword=\*\*\*&password=\*\*\*\)/],
  ['LEASE_SECONDS without DATABASE_URL', { LEASE_SECONDS: '5' }, /LEASE_SECONDS needs DATABASE_URL/],
  ['a LEASE_SECONDS below 2', { DATABASE_URL, LEASE_SECONDS: '1' }, /LEASE_SECONDS/],
  ['CLUSTER_SECRET without DATABASE_URL', { CLUSTER_SECRET: SECRET }, /CLUSTER_URL and CLUSTER_SECRET need DATABASE_URL/],
  ['DATABASE_URL without CLUSTER_SECRET', { DATABASE_URL, PORT: '3999' }, /CLUSTER_SECRET must be set with DATABASE_URL/],
  ['a CLUSTER_SECRET of 31 bytes', { DATABASE_URL, PORT: '3999', CLUSTER_SECRET: 'short-secret-31-bytes-long-xxxx' }, /CLUSTER_SECRET must be at least 32 bytes \(got 31\)/],
  ['HOST=0.0.0.0 without CLUSTER_URL', { DATABASE_URL, PORT: '3999', CLUSTER_SECRET: SECRET, HOST: '0.0.0.0' }, /CLUSTER_URL must be set with HOST=0.0.0.0/],
  ['a CLUSTER_URL with a user and password', { DATABASE_URL, PORT: '3999', CLUSTER_SECRET: SECRET, CLUSTER_URL: 'http://user:pw@10.0.0.5:3001' }, /CLUSTER_URL must be a plain address/],
  ['a CLUSTER_URL that is not http', { DATABASE_URL, PORT: '3999', CLUSTER_SECRET: SECRET, CLUSTER_URL: 'ftp://10.0.0.5' }, /CLUSTER_URL must be an http/],
];

test('PORT=0 without CLUSTER_URL is taken: the instance will advertise the port it is given, once bound', (t) => {
  const config = loadConfig(settingLookup({ DATABASE_URL, CLUSTER_SECRET: SECRET, PORT: '0' }, []));
  t.is(config.cluster?.url, undefined, 'no address until the instance listens');
  t.is(loadConfig(settingLookup({ DATABASE_URL, CLUSTER_SECRET: SECRET, PORT: '3999', BASE_PATH: '/api' }, [])).cluster?.url, 'http://127.0.0.1:3999/api');
});

for (const [title, env, names] of DATABASE_REFUSALS) {
  test(`start-up refuses ${title}, repeating no password or secret`, (t) => {
    assertRefused(t, { env }, names);
  });
}
