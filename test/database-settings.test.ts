/**
 * DATABASE_URL, LEASE_SECONDS, CLUSTER_SECRET and CLUSTER_URL (issue 17) are
 * checked at start-up, before any PostgreSQL is asked: DATABASE_URL not with
 * DATA_DIR and a postgres:// URL, the lease within its bounds, the cluster
 * settings only with DATABASE_URL, the secret required and long, the URL
 * plain. Each bad one is one line naming it, which never repeats the
 * database password or the cluster secret. In process, at the steps the
 * binary takes (helpers/start-up-refusal.ts).
 */
import test from 'ava';
import { tempDir } from './helpers/journal-files.js';
import { assertRefused } from './helpers/start-up-refusal.js';

const DATABASE_URL = 'postgres://u:secret-pw@127.0.0.1:5432/db';
const SECRET = 'a-cluster-secret-of-at-least-32-bytes';

test('DATABASE_URL and DATA_DIR together are refused', (t) => {
  assertRefused(t, { env: { DATABASE_URL, DATA_DIR: tempDir(t, 'pg-and-dir-') } }, /DATABASE_URL and DATA_DIR cannot both be set/);
});

const REFUSED: readonly (readonly [title: string, env: Readonly<Record<string, string>>, names: RegExp])[] = [
  ['a DATABASE_URL that is not postgres://', { DATABASE_URL: 'http://u:secret-pw@example.com/db' }, /DATABASE_URL must be a postgres:\/\/ URL/],
  // libpq takes passwords from the query string too: the line shows them masked.
  ['a DATABASE_URL without a host, its passwords in the query', { DATABASE_URL: 'postgres:///db?sslpassword=Key-Pass-1a2b3c&password=Query-Pass-7c8d9e' }, /DATABASE_URL must name a host \(got postgres:\/\/\/db\?sslpassword=\*\*\*&password=\*\*\*\)/],
  ['LEASE_SECONDS without DATABASE_URL', { LEASE_SECONDS: '5' }, /LEASE_SECONDS needs DATABASE_URL/],
  ['a LEASE_SECONDS below 2', { DATABASE_URL, LEASE_SECONDS: '1' }, /LEASE_SECONDS/],
  ['CLUSTER_SECRET without DATABASE_URL', { CLUSTER_SECRET: SECRET }, /CLUSTER_URL and CLUSTER_SECRET need DATABASE_URL/],
  ['DATABASE_URL without CLUSTER_SECRET', { DATABASE_URL, PORT: '3999' }, /CLUSTER_SECRET must be set with DATABASE_URL/],
  ['a CLUSTER_SECRET of 31 bytes', { DATABASE_URL, PORT: '3999', CLUSTER_SECRET: 'short-secret-31-bytes-long-xxxx' }, /CLUSTER_SECRET must be at least 32 bytes \(got 31\)/],
  ['PORT=0 without CLUSTER_URL', { DATABASE_URL, CLUSTER_SECRET: SECRET, PORT: '0' }, /CLUSTER_URL must be set with PORT=0/],
  ['HOST=0.0.0.0 without CLUSTER_URL', { DATABASE_URL, PORT: '3999', CLUSTER_SECRET: SECRET, HOST: '0.0.0.0' }, /CLUSTER_URL must be set with HOST=0.0.0.0/],
  ['a CLUSTER_URL with a user and password', { DATABASE_URL, PORT: '3999', CLUSTER_SECRET: SECRET, CLUSTER_URL: 'http://user:pw@10.0.0.5:3001' }, /CLUSTER_URL must be a plain address/],
  ['a CLUSTER_URL that is not http', { DATABASE_URL, PORT: '3999', CLUSTER_SECRET: SECRET, CLUSTER_URL: 'ftp://10.0.0.5' }, /CLUSTER_URL must be an http/],
];

for (const [title, env, names] of REFUSED) {
  test(`start-up refuses ${title}, repeating no password or secret`, (t) => {
    assertRefused(t, { env }, names);
  });
}
