/**
 * With DATA_DIR the customers and their ids outlive a restart, and ids are
 * never reused, so a customer's token (with a fixed JWT_SECRET) outlives it
 * too, as an administrator's does. The crash rounds found it dying at every
 * restart: its epoch was made per start (src/auth/tokens.ts), as it must be
 * in memory. A new, empty DATA_DIR still refuses it.
 */
import test from 'ava';
import { startService } from '../../helpers/service/service.js';
import { call, dataOf } from '../../helpers/api/product-api.js';
import { SHOP_ENV, adminBearer, newCustomer, type User } from '../../helpers/api/people-api.js';
import { tempDir } from '../../helpers/faults/journal-files.js';

test('with DATA_DIR and a fixed JWT_SECRET, a customer’s token outlives a restart as the customer does (an administrator’s does)', async (t) => {
  const env = { ...SHOP_ENV, REGISTER_MAX_PER_HOUR: '0', DATA_DIR: tempDir(t, 'journal-token-'), JWT_SECRET: 'a-fixed-secret-of-at-least-32-bytes-for-this-test' };
  const first = await startService({ env });
  t.teardown(() => first.stop());
  const customer = await newCustomer(first, 'Returning');
  const admin = await adminBearer(first);
  t.deepEqual(await first.stop(), { code: 0, signal: null });

  const second = await startService({ env });
  t.teardown(() => second.stop());
  t.is((await call(second, 'GET', `/users/${customer.user.id}`, undefined, admin)).status, 200, 'the administrator’s token still works');
  const me = await call(second, 'GET', '/users/me', undefined, customer.auth);
  t.is(me.status, 200, `the customer’s token after the restart: ${me.status} ${me.text}`);
  t.is(dataOf<User>(me).id, customer.user.id);
  t.deepEqual(await second.stop(), { code: 0, signal: null });

  const elsewhere = await startService({ env: { ...env, DATA_DIR: tempDir(t, 'journal-token-other-') } });
  t.teardown(() => elsewhere.stop());
  t.is((await call(elsewhere, 'GET', '/users/me', undefined, customer.auth)).status, 403, 'another store does not know this customer: the token is refused');
});
