/**
 * API_KEY_QUERY and REFRESH_TTL (contract section 5, "The seed's general
 * schemes"), checked at start-up in process: off by default, read from the
 * variable or the flag, each bad value or combination a ConfigError naming
 * the setting (serve.ts turns one into exit code 2 and one line, as for
 * every setting), PROTECT unable to name the refresh routes, and both listed
 * by --help.
 */
import test from 'ava';
import { loadConfig } from '../../../src/config/load-config.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { SETTING_NAMES, settingLookup } from '../../../src/config/settings.js';
import { settingsHelp } from '../../../src/config/setting-help.js';
import { loadAuthConfig } from '../../../src/auth/auth-config.js';
import { servedOperations } from '../../helpers/api/openapi.js';

const KEYS = { API_KEYS: 'ci=Settings-Key-31c4' };
const USERS = { AUTH_USERS: 'alice:Settings-Pass-31d5' };
const config = (env: Readonly<Record<string, string>>, args: readonly string[] = []) => loadConfig(settingLookup(env, args));
const auth = (env: Readonly<Record<string, string>>) => {
  const loaded = config(env);
  return loadAuthConfig(loaded.auth, { marketplace: loaded.marketplace });
};

test('both are off by default, and read from the variable or the flag, which wins', (t) => {
  for (const name of ['API_KEY_QUERY', 'REFRESH_TTL']) t.true((SETTING_NAMES as readonly string[]).includes(name));
  t.false(config({}).auth.apiKeyQuery);
  t.is(config({}).auth.refreshTtlSeconds, 0);
  t.true(config({ API_KEY_QUERY: 'on' }).auth.apiKeyQuery);
  t.true(config({}, ['--api-key-query']).auth.apiKeyQuery, 'a bare flag, like --strict');
  t.false(config({ API_KEY_QUERY: '1' }, ['--api-key-query', '0']).auth.apiKeyQuery);
  t.is(config({ REFRESH_TTL: '86400' }).auth.refreshTtlSeconds, 86400);
  t.is(config({ REFRESH_TTL: '86400' }, ['--refresh-ttl=7776000']).auth.refreshTtlSeconds, 90 * 24 * 3600);
});

test('a bad value is refused, naming the setting', (t) => {
  for (const value of ['maybe', '2', 'yes please']) t.throws(() => config({ API_KEY_QUERY: value }), { instanceOf: ConfigError, message: /^API_KEY_QUERY/ }, value);
  for (const value of ['-1', '1.5', '1h', 'never', '7776001']) t.throws(() => config({ REFRESH_TTL: value }), { instanceOf: ConfigError, message: /^REFRESH_TTL must be an integer from 0 to 7776000/ }, value);
});

test('a combination that could never work is refused, naming the setting and never a key', (t) => {
  const refused: readonly [string, Readonly<Record<string, string>>, RegExp][] = [
    ['API_KEY_QUERY without API_KEYS', { API_KEY_QUERY: '1' }, /^API_KEY_QUERY=1 needs API_KEYS/],
    ['REFRESH_TTL without an account to log in', { REFRESH_TTL: '86400' }, /^REFRESH_TTL needs AUTH_USERS/],
    ['REFRESH_TTL as short as JWT_TTL', { ...USERS, REFRESH_TTL: '3600' }, /^REFRESH_TTL \(3600\) must be longer than JWT_TTL \(3600\)/],
    ['REFRESH_TTL shorter than JWT_TTL', { ...USERS, REFRESH_TTL: '600', JWT_TTL: '900' }, /^REFRESH_TTL \(600\) must be longer than JWT_TTL \(900\)/],
  ];
  for (const [what, env, message] of refused) {
    const error = t.throws(() => auth(env), { instanceOf: ConfigError, message }, what);
    for (const secret of ['Settings-Pass-31d5', 'Settings-Key-31c4']) t.false(error?.message.includes(secret) ?? true, what);
  }
  t.true(auth({ ...KEYS, API_KEY_QUERY: '1' }).apiKeyQuery);
  t.is(auth({ ...USERS, REFRESH_TTL: '3601' }).refreshTtlSeconds, 3601);
  t.is(auth({ MARKETPLACE: '1', REFRESH_TTL: '86400' }).refreshTtlSeconds, 86400, 'customers can log in in the marketplace');
});

test('PROTECT cannot name /token/refresh or /logout, like /login; * leaves them open', (t) => {
  const env = { ...USERS, ...KEYS, REFRESH_TTL: '86400' };
  for (const rule of ['POST /token/refresh=bearer', 'POST /logout=apikey', '* /logout=basic']) {
    t.throws(() => servedOperations({ ...env, PROTECT: rule }), { instanceOf: ConfigError, message: /^PROTECT rule .* names no protectable route/ }, rule);
  }
  const served = servedOperations({ ...env, PROTECT: '* *=basic' });
  t.true(served.includes('POST /token/refresh') && served.includes('POST /logout'));
  t.false(servedOperations(USERS).some((operation) => operation.includes('/token/refresh') || operation.includes('/logout')), 'off, they are not served');
});

test('--help lists both with their flags and defaults', (t) => {
  const help = settingsHelp();
  t.regex(help, /API_KEY_QUERY\s+--api-key-query\s+.*api_key.*\(default: off\)/);
  t.regex(help, /REFRESH_TTL\s+--refresh-ttl\s+.*refresh token.*\(default: 0 \(off\)\)/);
});
