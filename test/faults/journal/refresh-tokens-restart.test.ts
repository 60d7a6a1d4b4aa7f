/**
 * Refresh tokens are store state (contract section 5): with DATA_DIR a
 * family's current token, its spent ones and a logout all outlive a restart
 * of the built service, and an AUTH_USERS account taken out of the settings
 * has no refresh token left that works after the restart.
 */
import test from 'ava';
import { startService, type RunningService } from '../../helpers/service/service.js';
import { postJson } from '../../helpers/api/product-api.js';
import { tempDir } from '../../helpers/faults/journal-files.js';

const ACCOUNTS = { alice: 'Restart-Alice-31', bob: 'Restart-Bob-31' } as const;

async function started(t: Parameters<typeof tempDir>[0], env: Readonly<Record<string, string>>): Promise<RunningService> {
  const service = await startService({ env });
  t.teardown(() => service.stop());
  return service;
}

async function loginAs(service: RunningService, username: keyof typeof ACCOUNTS): Promise<string> {
  const answer = await postJson(service, '/login', { username, password: ACCOUNTS[username] });
  return (answer.body as { refreshToken: string }).refreshToken;
}

async function refreshed(service: RunningService, refreshToken: string): Promise<{ status: number; next: string }> {
  const answer = await postJson(service, '/token/refresh', { refreshToken });
  return { status: answer.status, next: (answer.body as { refreshToken?: string } | undefined)?.refreshToken ?? '' };
}

test('with DATA_DIR, current, spent and logged-out refresh tokens keep their meaning across restarts; a removed account has none left', async (t) => {
  const env = {
    AUTH_USERS: `alice:${ACCOUNTS.alice},bob:${ACCOUNTS.bob}`,
    JWT_SECRET: 'restart-secret-of-at-least-32-bytes-long',
    REFRESH_TTL: '86400',
    JWT_TTL: '600',
    DATA_DIR: tempDir(t, 'refresh-restart-'),
  };
  const first = await started(t, env);
  const kept = await refreshed(first, await loginAs(first, 'alice'));
  const spentFirst = await loginAs(first, 'alice');
  const spentNext = (await refreshed(first, spentFirst)).next;
  const loggedOut = await loginAs(first, 'bob');
  t.is((await postJson(first, '/logout', { refreshToken: loggedOut })).status, 204);
  const bobs = await loginAs(first, 'bob');
  t.deepEqual(await first.stop(), { code: 0, signal: null });

  const second = await started(t, env);
  const afterRestart = await refreshed(second, kept.next);
  t.is(afterRestart.status, 200, 'the current token of a family still refreshes');
  t.is((await refreshed(second, spentFirst)).status, 401, 'a token spent before the restart is still spent');
  t.is((await refreshed(second, spentNext)).status, 401, '... and showing it ended its family');
  t.is((await refreshed(second, loggedOut)).status, 401, 'a logout before the restart holds');
  t.deepEqual(await second.stop(), { code: 0, signal: null });

  const withoutBob = await started(t, { ...env, AUTH_USERS: `alice:${ACCOUNTS.alice}` });
  t.is((await refreshed(withoutBob, bobs)).status, 401, 'bob is no longer an account: his refresh token is refused');
  t.is((await refreshed(withoutBob, afterRestart.next)).status, 200, "alice's goes on");
  t.deepEqual(await withoutBob.stop(), { code: 0, signal: null });

  // Bob back in the settings: his family ended at the refused refresh, it does not come back with him.
  const bobBack = await started(t, env);
  t.is((await refreshed(bobBack, bobs)).status, 401);
});
