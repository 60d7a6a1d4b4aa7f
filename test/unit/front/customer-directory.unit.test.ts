/**
 * The customers' side of /login: the store's `account` answer read in one
 * place (src/users/customer-directory.ts), and a store too busy to answer
 * turned into "retry shortly" (503), never into a failed login counted
 * against the customer.
 */
import test from 'ava';
import type { StoreCommand } from '../../../workers/store-protocol.js';
import type { StoreClient, StoreReply } from '../../../src/store/store-client.js';
import { customerDirectory } from '../../../src/users/customer-directory.js';
import { firstOf } from '../../../src/auth/accounts.js';
import { PasswordCheck } from '../../../src/auth/password-check.js';
import { HashGate } from '../../../src/auth/hash-gate.js';
import { LoginThrottle } from '../../../src/auth/login-throttle.js';
import { VerifiedCredentials } from '../../../src/auth/verified-credentials.js';
import { hashPassword, scryptDecoy } from '../../../src/auth/passwords.js';
import { parseAuthUsers } from '../../../src/auth/auth-users.js';

function fakeStore(answer: (command: StoreCommand) => StoreReply): StoreClient & { readonly sent: StoreCommand[] } {
  const sent: StoreCommand[] = [];
  return {
    sent,
    send: (command) => {
      sent.push(command);
      return Promise.resolve(answer(command));
    },
  };
}

test('an account answer becomes an Account whose subject is the customer; the email is looked up lower-cased', async (t) => {
  const passwordHash = await hashPassword('pass-word-1');
  const store = fakeStore(() => ({ kind: 'account', account: { userId: 7, email: 'ann@example.org', passwordHash } }));
  const account = await customerDirectory(store).find('Ann@Example.ORG');
  t.deepEqual(store.sent, [{ kind: 'users.account', email: 'ann@example.org' }]);
  t.true(account !== undefined && account !== 'busy');
  if (account === undefined || account === 'busy') return;
  t.deepEqual(account.subject, { username: 'ann@example.org', role: 'customer', userId: 7 });
  t.is(account.password.kind, 'scrypt');
});

test('refused is no account, busy is busy, and a failure or a body is an error', async (t) => {
  t.is(await customerDirectory(fakeStore(() => ({ kind: 'refused', code: 'USER_NOT_FOUND' }))).find('x@y.zz'), undefined);
  t.is(await customerDirectory(fakeStore(() => ({ kind: 'busy' }))).find('x@y.zz'), 'busy');
  await t.throwsAsync(() => Promise.resolve(customerDirectory(fakeStore(() => ({ kind: 'failed', reason: 'boom' }))).find('x@y.zz')), { message: /boom/ });
  await t.throwsAsync(() => Promise.resolve(customerDirectory(fakeStore(() => ({ kind: 'ok', body: '{}' }))).find('x@y.zz')), { message: /ok/ });
});

test('a busy store makes the password check busy (503), without counting a failure against the customer', async (t) => {
  const throttle = new LoginThrottle({ maxFailures: 1 });
  const check = new PasswordCheck({
    accounts: firstOf(parseAuthUsers('root:root-password'), customerDirectory(fakeStore(() => ({ kind: 'busy' })))),
    decoy: scryptDecoy(),
    throttle,
    gate: new HashGate({ concurrency: 1, queueLimit: 1 }),
    verified: new VerifiedCredentials(),
  });
  t.deepEqual(await check.check('10.0.0.1', 'ann@example.org', 'pass-word-1'), { kind: 'busy' });
  t.deepEqual(await check.check('10.0.0.1', 'ann@example.org', 'pass-word-1'), { kind: 'busy' });
  t.is(throttle.size, 0);
  // AUTH_USERS come first and need no store.
  t.like(await check.check('10.0.0.1', 'root', 'root-password'), { kind: 'accepted', subject: { username: 'root', role: 'admin' } });
});
