/**
 * A webhook receiver for tests, as a shop's other system would run one: an
 * http.createServer on 127.0.0.1, port 0, that keeps every request it gets
 * and answers as the test says (a status, a long body, a redirect, or no
 * answer at all). Deliveries are checked with the `standardwebhooks` package
 * exactly as a receiver would check them.
 */
import type { ExecutionContext } from 'ava';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { call, dataOf } from './product-api.js';
import type { ServiceUnderTest } from '../service/service.js';
import { adminKey } from './people-api.js';

/** One request as the receiver got it. */
export interface Received {
  readonly id: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** performance.now() when it had arrived whole. */
  readonly at: number;
}

/** How to answer one request: a status (and a body), or never (the connection is held open until the receiver closes). */
export type Answer = { readonly status: number; readonly body?: string | Buffer; readonly headers?: Readonly<Record<string, string>> } | 'never';

export interface Receiver {
  readonly url: string;
  readonly port: number;
  /** Every request so far, in arrival order. */
  readonly received: Received[];
  /** How the next requests are answered (204 until told otherwise). */
  answer: (request: Received) => Answer;
  /** The requests with this webhook-id. */
  withId(id: string): Received[];
  close(): Promise<void>;
}

/** A receiver that lives as long as the test. */
export async function startReceiver(t: ExecutionContext): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const held: ServerResponse[] = [];
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const header = (name: string): string => String(request.headers[name] ?? '');
      const got: Received = { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature'), headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() };
      received.push(got);
      const planned = receiver.answer(got);
      if (planned === 'never') {
        held.push(response);
        return;
      }
      response.writeHead(planned.status, { 'content-type': 'text/plain', ...planned.headers });
      response.end(planned.body ?? '');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    answer: () => ({ status: 204 }),
    withId: (id) => received.filter((request) => request.id === id),
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
  t.teardown(() => receiver.close());
  return receiver;
}

/** The headers the verifier reads, as a receiver passes them. */
export function webhookHeaders(request: Received): Record<string, string> {
  return { 'webhook-id': request.id, 'webhook-timestamp': request.timestamp, 'webhook-signature': request.signature };
}

/** Verifies a delivery with the reference verifier (throws when it refuses) and answers its parsed body. */
export function verified(request: Received, secret: string): { readonly type: string; readonly timestamp: string; readonly data: Record<string, unknown> } {
  return new Webhook(secret).verify(request.body, webhookHeaders(request)) as { type: string; timestamp: string; data: Record<string, unknown> };
}

/** An endpoint made by the administrator (201 or throws): its id and secret. */
export async function newEndpoint(service: ServiceUnderTest, url: string, events: readonly string[] = ['*']): Promise<{ readonly id: number; readonly secret: string }> {
  const response = await call(service, 'POST', '/webhooks', { json: { url, events } }, adminKey);
  if (response.status !== 201) throw new Error(`POST /webhooks answered ${response.status}: ${response.text}`);
  return dataOf<{ id: number; secret: string }>(response);
}

/** A delivery as GET /webhooks/:id/deliveries lists it. */
export interface ListedDelivery {
  readonly eventId: string;
  readonly type: string;
  readonly status: string;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly nextAttemptAt: string | null;
  readonly deliveredAt: string | null;
  readonly createdAt: string;
}

/** An endpoint's deliveries as the API lists them, newest first (every one, up to 100). */
export async function deliveriesOf(service: ServiceUnderTest, endpointId: number, query = ''): Promise<ListedDelivery[]> {
  const response = await call(service, 'GET', `/webhooks/${endpointId}/deliveries?per_page=100${query}`, undefined, adminKey);
  if (response.status !== 200) throw new Error(`GET deliveries answered ${response.status}: ${response.text}`);
  return dataOf(response);
}

/** Asks for the endpoint's deliveries until `ready` holds of them (the store records an outcome once the attempt is over); throws after the ceiling. */
export async function deliveriesOnceThey(service: ServiceUnderTest, endpointId: number, what: string, ready: (deliveries: ListedDelivery[]) => boolean, ceilingMs = 30_000): Promise<ListedDelivery[]> {
  const started = performance.now();
  for (;;) {
    const deliveries = await deliveriesOf(service, endpointId);
    if (ready(deliveries)) return deliveries;
    if (performance.now() - started > ceilingMs) throw new Error(`waited ${ceilingMs} ms for ${what}: ${JSON.stringify(deliveries)}`);
    await delay(20);
  }
}

/** The webhook settings every delivery test starts with: a receiver on loopback is allowed. */
export const RECEIVER_ENV: Readonly<Record<string, string>> = { WEBHOOK_ALLOW_PRIVATE: '1' };
