/**
 * The error tables stay honest: a code declared twice stops start-up, every
 * code the store can answer has an HTTP entry, and every code a route
 * declares exists. A code without an entry would be a 500 in production.
 */
import test from 'ava';
import { mergeErrorTables } from '../../../src/http/http-errors.js';
import { serviceErrors } from '../../../src/app.js';
import { PRODUCT_STORE_ERRORS } from '../../../workers/products/product-protocol.js';
import { PRODUKTE_STORE_ERRORS } from '../../../workers/produkte/produkte-protocol.js';
import { CATALOG_STORE_ERRORS } from '../../../workers/products/catalog-protocol.js';
import { REVIEW_STORE_ERRORS } from '../../../workers/reviews/review-protocol.js';
import { productRoutes } from '../../../src/products/product-routes.js';
import { catalogRoutes } from '../../../src/products/catalog-routes.js';
import { reviewRoutes } from '../../../src/reviews/review-routes.js';
import { produkteRoutes } from '../../../src/produkte/produkte-routes.js';
import { USER_STORE_ERRORS } from '../../../workers/users/user-protocol.js';
import { ADDRESS_STORE_ERRORS } from '../../../workers/addresses/address-protocol.js';
import { WISHLIST_STORE_ERRORS } from '../../../workers/wishlists/wishlist-protocol.js';
import { addressRoutes } from '../../../src/addresses/address-routes.js';
import { wishlistRoutes } from '../../../src/wishlist/wishlist-routes.js';
import { CART_STORE_ERRORS } from '../../../workers/carts/cart-protocol.js';
import { ORDER_STORE_ERRORS } from '../../../workers/orders/order-protocol.js';
import { cartRoutes } from '../../../src/cart/cart-routes.js';
import { adminOrderRoutes, orderRoutes } from '../../../src/orders/order-routes.js';
import { PAYMENT_STORE_ERRORS } from '../../../workers/payments/payment-protocol.js';
import { IDEMPOTENCY_STORE_ERRORS } from '../../../workers/idempotency/idempotency-protocol.js';
import { paymentRoutes } from '../../../src/payments/payment-routes.js';
import { SimulatedCardProcessor } from '../../../src/payments/simulated-card-processor.js';
import { createLogger } from '../../../src/log/logger.js';

const payments = paymentRoutes({ store: { send: () => Promise.reject(new Error('unused')) }, processor: new SimulatedCardProcessor(), log: createLogger('silent') });

test('a code declared by two tables is refused, naming the code', (t) => {
  t.throws(() => mergeErrorTables([{ SAME: { status: 400, message: 'a' } }, { SAME: { status: 404, message: 'b' } }]), { message: /SAME is declared twice/ });
});

test("the service's tables merge without a duplicate, in both modes", (t) => {
  t.notThrows(() => serviceErrors({ strict: false }));
  t.notThrows(() => serviceErrors({ strict: true }));
});

test('the body-parse error is the seed quirk (200) by default and 400 in strict mode, its body saying code 400', (t) => {
  t.like(serviceErrors({ strict: false }).BODY_NOT_JSON, { status: 200, bodyCode: 400 });
  t.like(serviceErrors({ strict: true }).BODY_NOT_JSON, { status: 400, bodyCode: 400 });
});

test('every error code a store protocol declares has an HTTP entry', (t) => {
  const table = serviceErrors({ strict: false });
  const storeCodes = [
    ...[...PRODUCT_STORE_ERRORS, ...PRODUKTE_STORE_ERRORS, ...CATALOG_STORE_ERRORS, ...REVIEW_STORE_ERRORS, ...USER_STORE_ERRORS],
    ...[...ADDRESS_STORE_ERRORS, ...WISHLIST_STORE_ERRORS, ...CART_STORE_ERRORS, ...ORDER_STORE_ERRORS, ...PAYMENT_STORE_ERRORS, ...IDEMPOTENCY_STORE_ERRORS],
  ];
  for (const code of storeCodes) {
    t.truthy(table[code], code);
  }
});

test("every not-found code a route declares for its ids has an HTTP entry, and it is a 404", (t) => {
  const table = serviceErrors({ strict: false });
  for (const route of [...productRoutes, ...produkteRoutes, ...catalogRoutes, ...reviewRoutes, ...addressRoutes, ...wishlistRoutes, ...cartRoutes, ...orderRoutes, ...adminOrderRoutes, ...payments]) {
    for (const code of Object.values(route.ids ?? {})) t.is(table[code]?.status, 404, `${route.method} ${route.path}: ${code}`);
  }
});

test("a payment decline is 402 and its body's code is the contract's reason; a repeated key with another body is 422", (t) => {
  const table = serviceErrors({ strict: true });
  t.like(table.CARD_EXPIRED, { status: 402, bodyCode: 'expired_card' });
  t.like(table.CARD_DECLINED, { status: 402, bodyCode: 'card_declined' });
  t.like(table.CARD_INSUFFICIENT_FUNDS, { status: 402, bodyCode: 'insufficient_funds' });
  t.like(table.IDEMPOTENCY_KEY_REUSED, { status: 422 });
  t.like(table.IDEMPOTENCY_KEY_IN_PROGRESS, { status: 409 });
  t.like(table.IDEMPOTENCY_KEY_MISSING, { status: 400 });
});
