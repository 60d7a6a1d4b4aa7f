/**
 * A marketplace service whose store is given a fake order store (FakeOrders):
 * for the payment route's HTTP tests before the orders domain is part of the
 * store. The front is the real one (createApp, the real routes, errors and
 * stages, over real HTTP on a free port); the store is the real StoreDispatch
 * from source, run in this process, with the test's OrderPayments through
 * its seam. Commands and results are copied as the thread hop copies them,
 * and each is answered on a later turn of the event loop, as a hop is.
 * The test places orders with `orders.place` (there is no route for it yet).
 */
import type { ExecutionContext } from 'ava';
import { loadConfig } from '../../../src/config/load-config.js';
import { settingLookup } from '../../../src/config/settings.js';
import { createLogger } from '../../../src/log/logger.js';
import { createApp } from '../../../src/app.js';
import { createServer, listen } from '../../../src/http/server.js';
import type { StoreClient } from '../../../src/store/store-client.js';
import type { CardProcessor } from '../../../src/payments/card-processor.js';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import { FakeOrders } from './fake-orders.js';
import { SHOP_ENV } from '../api/people-api.js';
import type { ServiceUnderTest } from '../service/service.js';

export interface FakeOrderShop {
  readonly service: ServiceUnderTest;
  readonly orders: FakeOrders;
}

export interface FakeOrderShopOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly cardProcessor?: CardProcessor;
}

export async function fakeOrderShop(t: ExecutionContext, { env = {}, cardProcessor }: FakeOrderShopOptions = {}): Promise<FakeOrderShop> {
  const config = loadConfig(settingLookup({ LOG_LEVEL: 'warn', ...SHOP_ENV, ...env }, ['--port', '0']));
  let logs = '';
  const log = createLogger(config.logLevel, (line) => (logs += line));
  const orders = new FakeOrders(config.currency);
  const dispatch = new StoreDispatch({ strict: config.strict, marketplace: config.marketplace, currency: config.currency, orderPaymentTtlSeconds: config.orderPaymentTtlSeconds }, { orders });
  const store: StoreClient = {
    send: (command) => new Promise((resolve) => setImmediate(() => resolve(structuredClone(dispatch.executeSafely(structuredClone(command)))))),
  };
  const server = createServer(config, createApp({ config, store, log, drain: { draining: false }, ...(cardProcessor === undefined ? {} : { cardProcessor }) }));
  const url = await listen(server, config);
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  t.teardown(stop);
  return { service: { url, port: Number(new URL(url).port), stderr: () => logs, stop }, orders };
}
