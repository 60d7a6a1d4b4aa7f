import test from 'ava';
import fc from 'fast-check';
import { fromCents, toCents } from '../../../workers/money.js';
import { ORDER_STATUSES, ORDER_TRANSITIONS, judgeTransition, type OrderActor } from '../../../workers/orders/order-machine.js';
import { cardBrand, cardFormProblem, hasExpired, passesLuhn } from '../../../src/payments/card-check.js';

test('19.99 × 3 is 59.97 exactly, and cents survive the round trip for every two-decimal price', (t) => {
  t.is(fromCents(toCents(19.99) * 3), 59.97);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100_000_000 }), fc.integer({ min: 1, max: 99 }), (cents, quantity) => {
      const price = fromCents(cents);
      const shown = String(fromCents(toCents(price) * quantity));
      return toCents(price) === cents && !/\.\d{3,}/.test(shown);
    }),
  );
});

test('the order machine allows exactly the contract table', (t) => {
  const allowed = new Set([
    'pending>paid:payment',
    'pending>cancelled:customer',
    'pending>cancelled:admin',
    'pending>cancelled:clock',
    'paid>shipped:admin',
    'paid>cancelled:customer',
    'paid>cancelled:admin',
    'shipped>delivered:admin',
  ]);
  const actors: OrderActor[] = ['payment', 'customer', 'admin', 'clock'];
  for (const from of ORDER_STATUSES) {
    for (const to of ORDER_STATUSES) {
      for (const actor of actors) t.is(judgeTransition(from, to, actor).allowed, allowed.has(`${from}>${to}:${actor}`), `${from} → ${to} by ${actor}`);
    }
  }
  t.like(ORDER_TRANSITIONS.pending.cancelled, { payment: 'cancelled', returnsStock: true });
  t.like(ORDER_TRANSITIONS.paid.cancelled, { payment: 'refunded', returnsStock: true });
  const refused = judgeTransition('delivered', 'cancelled', 'admin');
  t.false(refused.allowed);
  if (!refused.allowed) t.regex(refused.reason, /delivered.*cancelled/);
});

test('card checks: Luhn, brand, form problems name the field, expiry judged in UTC', (t) => {
  t.true(passesLuhn('4242424242424242'));
  t.false(passesLuhn('4242424242424241'));
  t.is(cardBrand('4242424242424242'), 'visa');
  t.is(cardBrand('5555555555554444'), 'mastercard');
  t.is(cardFormProblem({ number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' }), undefined);
  t.regex(cardFormProblem({ number: '4242 4242 4242 4242', expMonth: 12, expYear: 2030, cvc: '123' }) ?? '', /card\.number/);
  t.regex(cardFormProblem({ number: '4242424242424242', expMonth: 13, expYear: 2030, cvc: '123' }) ?? '', /card\.expMonth/);
  t.regex(cardFormProblem({ number: '4242424242424242', expMonth: 1, expYear: 30, cvc: '123' }) ?? '', /card\.expYear/);
  t.regex(cardFormProblem({ number: '4242424242424242', expMonth: 1, expYear: 2030, cvc: '12' }) ?? '', /card\.cvc/);
  // Last moment of November 2026 in UTC: a card expiring 11/2026 is still good; from December it is over.
  t.false(hasExpired({ expMonth: 11, expYear: 2026 }, new Date('2026-11-30T23:59:59.999Z')));
  t.true(hasExpired({ expMonth: 11, expYear: 2026 }, new Date('2026-12-01T00:00:00.000Z')));
  t.true(hasExpired({ expMonth: 12, expYear: 2025 }, new Date('2026-01-15T00:00:00.000Z')));
});
