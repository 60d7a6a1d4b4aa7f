/**
 * Refresh tokens on several instances (DATABASE_URL, contract section 5):
 * a family begun through one instance is refreshed through another, spent,
 * reused and logged out through either, and every instance answers the
 * same, a follower sending each refresh and logout to the writer even
 * before its own copy holds the family.
 */
import test from 'ava';
import { STEADY_LEASE_SECONDS, serving, startClusterInstance } from '../../helpers/faults/postgres-cluster.js';
import { postgresForFile } from '../../helpers/faults/postgres-server.js';
import { postJson } from '../../helpers/api/product-api.js';
import type { RunningService } from '../../helpers/service/service.js';

const PASSWORD = 'Cluster-Refresh-Pass-31';
const postgres = postgresForFile();

async function loginAt(service: RunningService): Promise<string> {
  const answer = await postJson(service, '/login', { username: 'alice', password: PASSWORD });
  return (answer.body as { refreshToken: string }).refreshToken;
}

async function refreshAt(service: RunningService, refreshToken: string): Promise<{ status: number; next: string }> {
  const answer = await postJson(service, '/token/refresh', { refreshToken });
  return { status: answer.status, next: (answer.body as { refreshToken?: string } | undefined)?.refreshToken ?? '' };
}

test('a writer and a follower honour the same refresh tokens: begun on one, rotated on the other, reuse and logout seen by both', async (t) => {
  const database = await postgres.database();
  const env = { DATABASE_URL: database.url, LEASE_SECONDS: STEADY_LEASE_SECONDS, AUTH_USERS: `alice:${PASSWORD}`, JWT_SECRET: 'cluster-refresh-secret-of-32-bytes-or-more', REFRESH_TTL: '86400', JWT_TTL: '600' };
  const writer = await serving(startClusterInstance(t, env));
  const follower = await serving(startClusterInstance(t, env));

  const begun = await loginAt(follower);
  const second = await refreshAt(writer, begun);
  t.is(second.status, 200, 'a login through the follower is known to the writer');
  // At once, through the follower: its copy may not hold the rotation yet, the writer does.
  const third = await refreshAt(follower, second.next);
  t.is(third.status, 200);
  t.is((await refreshAt(writer, second.next)).status, 401, 'the token the follower spent is spent on the writer: a reuse');
  t.is((await refreshAt(follower, third.next)).status, 401, '... which ended the family for the follower too');

  // Two logins through the writer: one logged out through the follower, one refreshed there, at once.
  const [out, on] = await Promise.all([loginAt(writer), loginAt(writer)]);
  const [loggedOut, refreshed] = await Promise.all([postJson(follower, '/logout', { refreshToken: out }), refreshAt(follower, on)]);
  t.is(loggedOut.status, 204);
  t.is(refreshed.status, 200, 'a family begun on the writer refreshes through the follower');
  t.is((await refreshAt(writer, out)).status, 401, 'a logout through the follower holds on the writer');
  t.is((await refreshAt(follower, 'Z'.repeat(86))).status, 401, 'an unknown token, forwarded and refused');
});
