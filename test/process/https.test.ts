/**
 * TLS_CERT and TLS_KEY (contract section 1, issue 3): the same service over
 * HTTPS only. The certificate is made for this run with openssl, trusted
 * explicitly through `ca`, and deleted afterwards. Wrong files (no PEM, a
 * key of another certificate) stop start-up with one line naming the
 * setting and holding nothing of a key; checked in process.
 */
import test from 'ava';
import { Buffer } from 'node:buffer';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { rawRequest, startService, type RunningService } from '../helpers/service/service.js';
import { BEARER_CHALLENGE, apiKeyAuth, basicAuth, bearerAuth, type CredentialHeaders } from '../helpers/api/auth-api.js';
import { assertRefused } from '../helpers/service/start-up-refusal.js';

const KEY = 'tls-key-3c4d5e6f';
const SECRET = 'https-test-secret-0123456789abcdefghij';

let directory = '';
let certificate: Buffer;
let service: RunningService;
const file = (name: string): string => path.join(directory, name);
/** The base64 lines of each private key: no refusal may quote one. */
let keyLines: string[] = [];

test.before(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'catalogue-tls-'));
  const [certFile, keyFile] = [path.join(directory, 'cert.pem'), path.join(directory, 'key.pem')];
  await promisify(execFile)('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', keyFile, '-out', certFile]);
  certificate = await readFile(certFile);
  const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await writeFile(file('other-key.pem'), otherKey);
  await writeFile(file('not-pem.txt'), 'not a PEM file\n');
  keyLines = [await readFile(keyFile, 'utf8'), otherKey].flatMap((pem) => pem.split('\n')).filter((line) => line.length >= 16 && !line.startsWith('-----'));
  service = await startService({
    env: {
      TLS_CERT: certFile,
      TLS_KEY: keyFile,
      AUTH_USERS: 'alice:secret',
      API_KEYS: KEY,
      JWT_SECRET: SECRET,
      PROTECT: 'GET /produkte/:id=basic,PUT /products/:id=apikey',
    },
  });
});

test.after.always(async () => {
  await service?.stop();
  if (directory !== '') await rm(directory, { recursive: true, force: true });
});

interface TlsResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/**
 * One request over TLS. fetch cannot be given a CA, so node:https it is; the
 * certificate is checked against our own one, under the name it was made for.
 */
function tlsCall(method: string, target: string, options: { headers?: CredentialHeaders; json?: unknown; trust?: boolean } = {}): Promise<TlsResponse> {
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  return new Promise((resolve, reject) => {
    const request = https.request(
      `${service.url}${target}`,
      { method, headers, agent: false, servername: 'localhost', ...(options.trust !== false && { ca: certificate }) },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

test('with TLS_CERT and TLS_KEY the startup line shows an https:// URL', (t) => {
  t.regex(service.stdout(), /listening on https:\/\/127\.0\.0\.1:\d+/);
  t.true(service.url.startsWith('https://'));
});

test('GET /products/1 over HTTPS, certificate verified against the test CA → 200 with product 1', async (t) => {
  const response = await tlsCall('GET', '/products/1');
  t.is(response.status, 200, response.text);
  t.is((JSON.parse(response.text) as { data: { id: number } }).data.id, 1);
});

test('POST /login over HTTPS, then a Bearer call to GET /me works over TLS', async (t) => {
  const login = await tlsCall('POST', '/login', { json: { username: 'alice', password: 'secret' } });
  t.is(login.status, 200, login.text);
  const { token } = JSON.parse(login.text) as { token: string };
  const me = await tlsCall('GET', '/me', { headers: bearerAuth(token) });
  t.is(me.status, 200, me.text);
  t.is(me.text, '{"data":{"username":"alice","scheme":"bearer"}}');
  const refused = await tlsCall('GET', '/me');
  t.is(refused.status, 401);
  t.is(refused.headers['www-authenticate'], BEARER_CHALLENGE);
});

test('Basic and API key work over TLS too', async (t) => {
  t.is((await tlsCall('GET', '/produkte/1', { headers: basicAuth('alice', 'secret') })).status, 200);
  t.is((await tlsCall('GET', '/produkte/1')).status, 401);
  const replaced = await tlsCall('PUT', '/products/2', { headers: apiKeyAuth(KEY), json: { name: 'Kettle', description: 'Gooseneck, 1 litre', price: 55 } });
  t.is(replaced.status, 200, replaced.text);
  t.is((await tlsCall('PUT', '/products/2', { json: { name: 'Kettle', description: 'Gooseneck', price: 55 } })).status, 403);
});

test('a client that does not trust the test certificate refuses the connection (it is real TLS with our certificate)', async (t) => {
  const error = await t.throwsAsync(tlsCall('GET', '/products/1', { trust: false }));
  t.regex(String((error as NodeJS.ErrnoException | undefined)?.code), /SELF_SIGNED|UNABLE_TO_VERIFY|CERT/);
});

test('plain HTTP to the HTTPS port gets no product: the connection fails or the answer is not 200', async (t) => {
  const raw = await rawRequest(service.port, `GET /products/1 HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\nConnection: close\r\n\r\n`).then(
    (response) => response,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  if (raw instanceof Error) t.pass(`raw HTTP: ${raw.message}`);
  else {
    t.not(raw.status, 200, raw.statusLine);
    t.notRegex(raw.body, /"data"/);
  }
  const fetched = await fetch(`http://127.0.0.1:${service.port}/products/1`).then(
    async (response) => ({ status: response.status, text: await response.text() }),
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  if (fetched instanceof Error) t.pass(`fetch over HTTP: ${fetched.message}`);
  else {
    t.not(fetched.status, 200);
    t.notRegex(fetched.text, /"data"/);
  }
});

const REFUSED: readonly (readonly [title: string, cert: string, key: string, names: RegExp])[] = [
  ['a TLS_CERT that is no PEM file', 'not-pem.txt', 'key.pem', /^catalogue: TLS_CERT must be a PEM certificate \(.+\)\n$/],
  ['a TLS_KEY that is no PEM file', 'cert.pem', 'not-pem.txt', /^catalogue: TLS_KEY must be a PEM private key \(.+\)\n$/],
  ['the key given as TLS_CERT', 'key.pem', 'key.pem', /^catalogue: TLS_CERT must be a PEM certificate/],
  ['the certificate given as TLS_KEY', 'cert.pem', 'cert.pem', /^catalogue: TLS_KEY must be a PEM private key/],
  ['a TLS_KEY of another certificate', 'cert.pem', 'other-key.pem', /^catalogue: TLS_KEY must be the private key of TLS_CERT's certificate/],
];

for (const [title, cert, key, names] of REFUSED) {
  test(`start-up refuses ${title}, quoting nothing of a key`, (t) => {
    assertRefused(t, { env: { TLS_CERT: file(cert), TLS_KEY: file(key) } }, names, keyLines);
  });
}
