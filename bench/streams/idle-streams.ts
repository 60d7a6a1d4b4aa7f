/**
 * Idle customers waiting for their orders to change (issue 18's bench): each
 * places one order, then holds one order event stream on it, on a raw socket
 * of this process, open until closed. A stream counts as open once its
 * `order` event has arrived; from then on its heartbeats are read and
 * dropped, as a browser tab would.
 */
import net from 'node:net';
import { once } from 'node:events';
import type { Customer } from '../checkout/checkout.js';

export interface Watcher {
  readonly token: string;
  readonly orderId: number;
}

export interface IdleStreams {
  readonly count: number;
  /** Closes every stream from this side. */
  close(): Promise<void>;
}

const OPEN_CEILING_MS = 30_000;
const SETUP_CONCURRENCY = 20;

async function inBatches<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  }));
}

/** Each stream's customer places one order (its stream's subject); the watchers. */
export async function placeWatchedOrders(url: string, productId: number, customers: readonly Customer[]): Promise<Watcher[]> {
  const watchers: Watcher[] = [];
  await inBatches(customers, SETUP_CONCURRENCY, async (customer) => {
    const headers = { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' };
    const item = await fetch(`${url}/users/me/cart/items/${productId}`, { method: 'PUT', headers, body: '{"quantity":1}' });
    await item.text();
    const placed = await fetch(`${url}/users/me/orders`, { method: 'POST', headers, body: JSON.stringify({ addressId: customer.addressId }) });
    const text = await placed.text();
    const id = /"id":(\d+)/.exec(text)?.[1];
    if (placed.status !== 201 || id === undefined) throw new Error(`placing a watched order answered ${placed.status}: ${text.slice(0, 120)}`);
    watchers.push({ token: customer.token, orderId: Number(id) });
  });
  return watchers;
}


function openOne(host: string, port: number, watcher: Watcher, sockets: net.Socket[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    sockets.push(socket);
    let head = '';
    const timer = setTimeout(() => reject(new Error(`order ${watcher.orderId}: no order event in ${OPEN_CEILING_MS} ms (${head.slice(0, 120)})`)), OPEN_CEILING_MS);
    const opening = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('event: order')) {
        if (/^HTTP\/1\.1 (?!200)/.test(head)) reject(new Error(`order ${watcher.orderId}: ${head.split('\r\n')[0] ?? ''}`));
        return;
      }
      clearTimeout(timer);
      socket.off('data', opening);
      socket.on('data', () => undefined);
      resolve();
    };
    socket.on('data', opening);
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(`GET /users/me/orders/${watcher.orderId}/events HTTP/1.1\r\nHost: ${host}:${port}\r\nAuthorization: Bearer ${watcher.token}\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

/** Opens a stream per watcher, `concurrency` connecting at a time (the listen backlog is 511). */
export async function openIdleStreams(url: string, watchers: readonly Watcher[], concurrency = 200): Promise<IdleStreams> {
  const { hostname, port } = new URL(url);
  const sockets: net.Socket[] = [];
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, watchers.length) }, async () => {
        while (next < watchers.length) await openOne(hostname, Number(port), watchers[next++] as Watcher, sockets);
      }),
    );
  } catch (error) {
    for (const socket of sockets) socket.destroy();
    throw error;
  }
  return {
    count: sockets.length,
    async close() {
      const closed = sockets.map((socket) => (socket.destroyed ? Promise.resolve() : once(socket, 'close').then(() => undefined)));
      for (const socket of sockets) socket.destroy();
      await Promise.all(closed);
    },
  };
}
