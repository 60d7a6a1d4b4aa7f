/**
 * The webhook sender's settings (contract section 8): each an environment
 * variable and a flag, with its default, checked once at start-up; a bad
 * value stops the service with exit code 2 and one line naming it; each is
 * in --help.
 */
import test from 'ava';
import { loadConfig } from '../../../src/config/load-config.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { settingLookup } from '../../../src/config/settings.js';
import type { WebhookSettings } from '../../../src/config/webhook-settings.js';
import { settingsHelp } from '../../../src/config/setting-help.js';
import { assertRefused } from '../../helpers/service/start-up-refusal.js';

const webhooks = (env: Readonly<Record<string, string>>, args: readonly string[] = []): WebhookSettings => loadConfig(settingLookup(env, args)).webhooks;

test('the defaults, the variables and the flags (a flag wins; WEBHOOK_ALLOW_PRIVATE may be a bare flag)', (t) => {
  t.deepEqual(webhooks({}), { timeoutMs: 10_000, retryScheduleMs: [5, 300, 1800, 7200, 18000, 36000, 36000].map((seconds) => seconds * 1000), concurrency: 4, allowPrivate: false, pendingMax: 100_000 });
  t.deepEqual(webhooks({ WEBHOOK_TIMEOUT: '3', WEBHOOK_RETRY_SCHEDULE: ' 1, 2 ,3', WEBHOOK_CONCURRENCY: '1', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_PENDING_MAX: '5' }), {
    timeoutMs: 3000,
    retryScheduleMs: [1000, 2000, 3000],
    concurrency: 1,
    allowPrivate: true,
    pendingMax: 5,
  });
  t.like(webhooks({ WEBHOOK_CONCURRENCY: '2' }, ['--webhook-concurrency', '8', '--webhook-allow-private', '--webhook-retry-schedule=60']), { concurrency: 8, allowPrivate: true, retryScheduleMs: [60_000] });
});

test('a bad value of each is refused, naming the setting', (t) => {
  const bad: readonly (readonly [string, string])[] = [
    ['WEBHOOK_TIMEOUT', '0'],
    ['WEBHOOK_TIMEOUT', '301'],
    ['WEBHOOK_TIMEOUT', '2.5'],
    ['WEBHOOK_RETRY_SCHEDULE', '5,,10'],
    ['WEBHOOK_RETRY_SCHEDULE', '0'],
    ['WEBHOOK_RETRY_SCHEDULE', '5m'],
    ['WEBHOOK_RETRY_SCHEDULE', '604801'],
    ['WEBHOOK_RETRY_SCHEDULE', Array.from({ length: 51 }, () => '1').join(',')],
    ['WEBHOOK_CONCURRENCY', '0'],
    ['WEBHOOK_CONCURRENCY', '65'],
    ['WEBHOOK_ALLOW_PRIVATE', 'maybe'],
    ['WEBHOOK_PENDING_MAX', '0'],
    ['WEBHOOK_PENDING_MAX', 'lots'],
  ];
  for (const [name, value] of bad) t.throws(() => webhooks({ [name]: value }), { instanceOf: ConfigError, message: new RegExp(`^${name} must`) }, `${name}=${value}`);
});

test('a bad value refuses the start (exit code 2 in start-up-process.test.ts) with one line naming the setting; --help lists every one', (t) => {
  assertRefused(t, { env: { MARKETPLACE: '1', WEBHOOK_RETRY_SCHEDULE: 'soon' } }, /^catalogue: WEBHOOK_RETRY_SCHEDULE must be 1 to 50 comma-separated whole numbers of seconds/);
  const help = settingsHelp();
  for (const name of ['WEBHOOK_TIMEOUT', 'WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_CONCURRENCY', 'WEBHOOK_ALLOW_PRIVATE', 'WEBHOOK_PENDING_MAX']) t.true(help.includes(name), name);
});
