/**
 * ORDER_PAYMENT_TTL (contract section 7, "Orders"): a setting like those of
 * section 1, an environment variable and a flag (the flag wins), 1800
 * seconds by default, checked at start-up: a bad value stops the service
 * with exit code 2 and one line naming it.
 */
import test from 'ava';
import { loadConfig } from '../../../src/config/load-config.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { SETTING_NAMES, settingLookup } from '../../../src/config/settings.js';
import { assertRefused } from '../../helpers/service/start-up-refusal.js';

const ttl = (env: Readonly<Record<string, string>>, args: readonly string[] = []): number => loadConfig(settingLookup(env, args)).orderPaymentTtlSeconds;

test('1800 seconds by default; from the variable, or the flag, which wins', (t) => {
  t.true((SETTING_NAMES as readonly string[]).includes('ORDER_PAYMENT_TTL'));
  t.is(ttl({}), 1800);
  t.is(ttl({ ORDER_PAYMENT_TTL: '60' }), 60);
  t.is(ttl({ ORDER_PAYMENT_TTL: '60' }, ['--order-payment-ttl', '5']), 5);
  t.is(ttl({}, ['--order-payment-ttl=1']), 1);
  t.is(ttl({ ORDER_PAYMENT_TTL: '31622400' }), 366 * 24 * 3600);
});

test('a value that is not a whole number of seconds from 1 to a year is refused, naming the setting', (t) => {
  for (const value of ['0', '-5', '1.5', '30m', 'soon', '31622401']) {
    t.throws(() => ttl({ ORDER_PAYMENT_TTL: value }), { instanceOf: ConfigError, message: /ORDER_PAYMENT_TTL/ }, value);
  }
});

test('start-up stops with one line naming ORDER_PAYMENT_TTL', (t) => {
  assertRefused(t, { env: { MARKETPLACE: '1', ORDER_PAYMENT_TTL: '0' } }, /^catalogue: ORDER_PAYMENT_TTL must be an integer from 1 to 31622400/);
});
