/**
 * Issue found by test/faults/journal/journal-crash.test.ts (its "payments left charging"
 * count): a payment's begin is journaled, and its answer waits for the flush,
 * before the card processor is asked; the finish is journaled only once the
 * processor answered. A crash in between leaves a journal whose replay marks
 * the order as being paid and its Idempotency-Key as in progress, and nothing
 * after a restart ever finishes the charge (open-journal.ts reports
 * `chargesReleased: 0` always): the same request again is 409 (key in
 * progress), another key is 409 (a charge is out), a cancel is 409, and the
 * payment clock skips the order, for ever.
 *
 * The crash image is made exactly: the service runs in this process with a
 * card processor that holds the charge, and the DATA_DIR is copied while it
 * holds it (begin on disk, finish not run); the copy is started with the
 * built binary. Fixed (open-journal.ts finishChargesLeftOut): recovery
 * finishes such a charge as the processor failing; this keeps it so.
 */
import test from 'ava';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startInProcess, startService, type ServiceUnderTest } from '../../helpers/service/service.js';
import { call, dataOf, type ApiResponse } from '../../helpers/api/product-api.js';
import { SHOP_ENV, newCustomer } from '../../helpers/api/people-api.js';
import { bearerAuth, login } from '../../helpers/api/auth-api.js';
import { cartLine, newAddress, newProduct, postOrder, type Order } from '../../helpers/api/order-api.js';
import { GatedProcessor, cardBody } from '../../helpers/api/card-processors.js';
import { tempDir } from '../../helpers/faults/journal-files.js';

const ENV = { ...SHOP_ENV, REGISTER_MAX_PER_HOUR: '0' };

const pay = (service: ServiceUnderTest, auth: Readonly<Record<string, string>>, orderId: number): Promise<ApiResponse> =>
  call(service, 'POST', `/users/me/orders/${orderId}/payments`, { json: cardBody() }, { ...auth, 'idempotency-key': 'pay-once' });

test('a payment whose charge was out when the process died leaves its order payable: the same request sent again after the restart is 201, not 409 for ever', async (t) => {
  const live = tempDir(t, 'journal-charge-live-');
  const image = tempDir(t, 'journal-charge-image-');
  const processor = new GatedProcessor();
  const service = await startInProcess({ env: { ...ENV, DATA_DIR: live }, cardProcessor: processor });
  // Stopped once, here or at teardown when the test ends before (its store thread would keep the test process alive).
  let stopping: Promise<unknown> | undefined;
  const stopLive = (): Promise<unknown> => (stopping ??= service.stop());
  t.teardown(stopLive);
  const customer = await newCustomer(service, 'Interrupted');
  const productId = await newProduct(service, { price: 8, stock: 4 });
  const addressId = await newAddress(service, customer);
  await cartLine(service, customer, productId, 1);
  const order = dataOf<Order>(await postOrder(service, customer.auth, addressId));
  const paying = pay(service, customer.auth, order.id);
  await processor.whenHolding(1);
  // The disk as a crash now leaves it. LOCK names this process, alive: a crashed holder's would name no live one.
  cpSync(live, image, { recursive: true });
  rmSync(join(image, 'LOCK'));
  processor.release();
  t.is((await paying).status, 201, 'the live service finished its charge');
  await stopLive();

  const restarted = await startService({ env: { ...ENV, DATA_DIR: image } });
  t.teardown(() => restarted.stop());
  const auth = bearerAuth(await login(restarted, customer.user.email, customer.password));
  const again = await pay(restarted, auth, order.id);
  t.is(again.status, 201, `the same payment sent again after the restart: ${again.status} ${again.text}`);
  const seen = dataOf<Order>(await call(restarted, 'GET', `/users/me/orders/${order.id}`, undefined, auth));
  t.is(seen.status, 'paid');
});
