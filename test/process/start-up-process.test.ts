/**
 * The built binary's start-up, where only a process shows it: the variables
 * and flags it is given, its startup line, and one refusal of each kind that
 * ends in exit code 2 (src/serve.ts): a flag it does not know (reading the
 * flags), a bad value (loading the settings), and protection settings that
 * do not fit the routes (refused once the store has started, when the routes
 * are built). Each refusal is one line on stderr that names the setting and
 * quotes no secret; a port in use is exit code 1; `--help` prints the
 * settings and exits 0. Every other bad setting is
 * checked in process (helpers/service/start-up-refusal.ts); a DATA_DIR in use and a
 * journal the store refuses are run in test/faults/journal/journal-recovery.test.ts.
 */
import test from 'ava';
import { runToExit, startInProcess, startService } from '../helpers/service/service.js';
import { assertRefusalLine, secretsIn, type StartUpSettings } from '../helpers/service/start-up-refusal.js';
import { settingsHelp } from '../../src/config/setting-help.js';

/** Credentials of every kind, long and distinctive: none may reach stderr. */
const SECRETS = {
  AUTH_USERS: 'alice:Alice-Pass-7781',
  API_KEYS: 'ci=Ci-Key-55aa66bb',
  JWT_SECRET: 'Jwt-Secret-0123456789-abcdefghijklmnop',
};

test('the binary reads its settings from the environment, and a flag beats a variable: the startup line shows both, with the real port', async (t) => {
  const service = await startService({ env: { PORT: 'not-a-port', BASE_PATH: '/from-env' }, args: ['--port', '0'] });
  t.teardown(() => service.stop());
  t.regex(service.stdout(), /^catalogue listening on http:\/\/127\.0\.0\.1:\d+\/from-env\n$/);
  t.not(service.port, 0);
  t.is((await fetch(`${service.url}/health`)).status, 200);
});

const REFUSALS: readonly { readonly kind: string; readonly settings: StartUpSettings; readonly names: RegExp }[] = [
  { kind: 'a flag it does not know', settings: { env: SECRETS, args: ['--port', '0', '--colour', 'blue'] }, names: /unknown argument "--colour"/ },
  { kind: 'a bad value, beside a database password', settings: { env: { ...SECRETS, DATABASE_URL: 'postgres://u:Db-Pass-4a5b6c@127.0.0.1:5432/db', LEASE_SECONDS: '1' } }, names: /LEASE_SECONDS must be an integer from 2 to 60/ },
  { kind: 'a PROTECT rule naming no route', settings: { env: { ...SECRETS, PROTECT: 'GET /orders=basic' } }, names: /PROTECT rule "GET \/orders=basic" names no protectable route/ },
];

for (const { kind, settings, names } of REFUSALS) {
  test(`the binary refuses ${kind}: exit 2, one stderr line naming it, no secret, never listening`, async (t) => {
    const exit = await runToExit(settings);
    t.is(exit.code, 2, exit.stderr);
    t.is(exit.stdout, '');
    assertRefusalLine(t, exit.stderr, names, secretsIn(settings));
  });
}

test('a port already in use stops start-up with exit 1 and a clear message', async (t) => {
  const first = await startInProcess();
  t.teardown(() => first.stop());
  const exit = await runToExit({ args: ['--port', String(first.port)] });
  t.is(exit.code, 1);
  t.regex(exit.stderr, new RegExp(`^catalogue: cannot listen on 127\\.0\\.0\\.1:${first.port}: .*EADDRINUSE.*\\n$`));
});

test('--help prints every setting and starts nothing: exit 0', async (t) => {
  const exit = await runToExit({ args: ['--help'] });
  t.is(exit.code, 0, exit.stderr);
  t.is(exit.stdout, settingsHelp());
  t.is(exit.stderr, '');
});
