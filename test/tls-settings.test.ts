/**
 * TLS_CERT and TLS_KEY are read and checked at start-up: each a PEM file
 * Node's TLS reads, the key that of the certificate. A wrong file stops the
 * start with one line naming its setting, and the line never holds the
 * key's bytes. In process, at the steps the binary takes
 * (helpers/start-up-refusal.ts); test/https.test.ts serves with a good pair.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config/load-config.js';
import { settingLookup } from '../src/config/settings.js';
import { assertRefused } from './helpers/start-up-refusal.js';

let directory = '';
const file = (name: string): string => path.join(directory, name);
/** The base64 lines of each private key: no refusal may quote one. */
let keyLines: string[] = [];

test.before(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'catalogue-tls-settings-'));
  await promisify(execFile)('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', file('key.pem'), '-out', file('cert.pem')]);
  const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await writeFile(file('other-key.pem'), otherKey);
  await writeFile(file('not-pem.txt'), 'not a PEM file\n');
  const keys = [await readFile(file('key.pem'), 'utf8'), otherKey];
  keyLines = keys.flatMap((pem) => pem.split('\n')).filter((line) => line.length >= 16 && !line.startsWith('-----'));
});

test.after.always(async () => {
  if (directory !== '') await rm(directory, { recursive: true, force: true });
});

test('a certificate and its own key are taken', (t) => {
  const config = loadConfig(settingLookup({ TLS_CERT: file('cert.pem'), TLS_KEY: file('key.pem') }, []));
  t.truthy(config.tls);
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
