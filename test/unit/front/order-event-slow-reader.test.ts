/**
 * A client that stops reading cannot grow the service's memory without
 * bound (issue 18): once more than EVENT_STREAM_BUFFER bytes wait in the
 * process for it, it is cut, and the heap, measured here after a full
 * garbage collection, grows by about that much at most; a stream beside it
 * that reads gets every event. The control run, without the limit, shows
 * the measurement sees such a buffer.
 *
 * The streams here are the service's own (its routes, hub, streams and
 * response writer on a real HTTP server and real sockets), fed with changes
 * as the store client feeds them, but not by the store: on loopback the
 * kernel's socket buffers take about 4 MB of a client that does not read
 * before a byte waits in the process, some 20,000 events, which orders
 * placed over HTTP would take half a minute to make.
 */
import test from 'ava';
import http from 'node:http';
import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { createOrderEvents, type OrderEvents } from '../../../src/order-events/order-events.js';
import { createReplyWriter } from '../../../src/http/response-writer.js';
import { createExchanges } from '../../../src/http/exchange.js';
import { serviceErrors } from '../../../src/app.js';
import { createLogger } from '../../../src/log/logger.js';
import type { StoreClient } from '../../../src/store/store-client.js';
import type { Reply } from '../../../src/http/reply.js';
import type { OrderChangeSlot } from '../../../workers/orders/order-events-protocol.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const KIB = 1024;
const MIB = 1024 * KIB;
/** 60,000 changes of about 200 bytes: 12 MB, three times what the kernel takes. */
const CHANGES = 60_000;
const PER_BATCH = 500;

/** The store's answer to a stream's read: it starts afresh at change 0. */
const STORE: StoreClient = { send: () => Promise.resolve({ kind: 'order-events', events: { lastChange: 0, changes: [] } }) };

async function serveAllOrders(bufferBytes: number): Promise<{ events: OrderEvents; port: number; close: () => Promise<void> }> {
  const events = createOrderEvents({ store: STORE, log: createLogger('silent'), limits: { heartbeatMs: 60_000, maxStreams: 10, maxPerCustomer: 10, bufferBytes } });
  const route = events.routes.find((each) => each.path === '/orders/events');
  const action = route?.action;
  if (action === undefined || !('handle' in action)) throw new Error('no /orders/events handler');
  const write = createReplyWriter({ errors: serviceErrors({ strict: true }), drain: { draining: false } });
  const exchangeOf = createExchanges();
  const server = http.createServer((req, res) => {
    void Promise.resolve(action.handle({ req, clientAddress: '127.0.0.1', params: {}, ids: {}, body: undefined, query: { lastEventId: null }, caller: undefined, conditions: {} })).then((reply: Reply) => write(res, reply, exchangeOf(req)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    events,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A client that reads its head, then stops reading (the socket is paused: the kernel's buffers fill, then the service's). */
async function stalledClient(port: number): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write('GET /orders/events HTTP/1.1\r\nHost: x\r\n\r\n');
  await once(socket, 'data');
  socket.pause();
  return socket;
}

/** A client that reads everything and counts the events. */
function readingClient(port: number): { events: () => number; done: Promise<void> } {
  let text = '';
  let events = 0;
  const done = new Promise<void>((resolve, reject) => {
    http
      .get({ port, host: '127.0.0.1', path: '/orders/events', agent: false }, (response) => {
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          const blocks = text.split('\n\n');
          text = blocks.pop() ?? '';
          events += blocks.filter((block) => block.includes('event: status')).length;
          if (events >= CHANGES) resolve();
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });
  return { events: () => events, done };
}

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Publishes CHANGES changes as the store client does, a batch a turn, letting the sockets take what they can in between. */
async function publish(events: OrderEvents): Promise<void> {
  const at = Date.UTC(2026, 10, 25);
  for (let first = 1; first <= CHANGES; first += PER_BATCH) {
    const batch: OrderChangeSlot[] = [];
    for (let change = first; change < first + PER_BATCH; change++) batch.push(change, change, 7, 'shipped', 'paid', `1Z999AA1${String(change).padStart(10, '0')}`, at + change, 0);
    events.publish(batch);
    await nextTurn();
  }
}

async function run(bufferBytes: number): Promise<{ grown: number; cut: number; read: number }> {
  const served = await serveAllOrders(bufferBytes);
  try {
    const stalled = await stalledClient(served.port);
    const reader = readingClient(served.port);
    while (served.events.stats.allOrderStreams < 2) await nextTurn();
    const before = heapUsed();
    await publish(served.events);
    await reader.done;
    const grown = heapUsed() - before;
    stalled.destroy();
    return { grown, cut: served.events.stats.streamsCut, read: reader.events() };
  } finally {
    await served.close();
  }
}

test.serial('a client that stops reading is cut once 256 KiB wait for it, and the heap grows by less than 1 MiB while 12 MB of events go out', async (t) => {
  const { grown, cut, read } = await run(256 * KIB);
  t.is(cut, 1, 'the client that stopped reading was cut');
  t.is(read, CHANGES, 'the client that reads got every event');
  t.true(grown < 1 * MIB, `the heap grew by ${(grown / MIB).toFixed(2)} MiB`);
  t.log(`heap grown: ${(grown / MIB).toFixed(2)} MiB with a 256 KiB limit`);
});

test.serial('the control: without the limit (1 GiB) the same client holds megabytes in the heap, so the measurement above would see it', async (t) => {
  const { grown, cut, read } = await run(1024 * MIB);
  t.is(cut, 0);
  t.is(read, CHANGES);
  t.true(grown > 4 * MIB, `the heap grew by ${(grown / MIB).toFixed(2)} MiB`);
  t.log(`heap grown: ${(grown / MIB).toFixed(2)} MiB without a limit`);
});
