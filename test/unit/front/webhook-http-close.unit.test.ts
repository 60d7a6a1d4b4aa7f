/**
 * The webhook sender's HTTP client ends everything when it is closed (a stop,
 * or a writer that steps down): an attempt that was still loading the client
 * is cut rather than made on a new one, and a connection still being made is
 * cut rather than left to its connect time-out. The second once kept an
 * in-process service's test alive for the 10 s time-out after its stop (an
 * address that never answers), and both would have let a stepped-down writer
 * go on connecting.
 */
import test from 'ava';
import { once } from 'node:events';
import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import { WebhookHttp } from '../../../src/webhooks/webhook-http.js';
import { waitFor } from '../../helpers/wait-for.js';

const TEN_SECONDS = 10_000;
const HEADERS = ['content-type', 'application/json'];

/** A TCP server that takes connections and never says a word: a TLS handshake with it never ends. */
async function silentServer(t: { teardown: (fn: () => void) => void }): Promise<{ port: number; open: () => number; accepted: () => number }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { port: (server.address() as net.AddressInfo).port, open: () => sockets.size, accepted: () => accepted };
}

test('an attempt whose client was still loading when the client closed is cut: it fails at once, and connects nowhere', async (t) => {
  const receiver = await silentServer(t);
  const http = new WebhookHttp({ timeoutMs: TEN_SECONDS, connections: 2, allowPrivate: true });
  const attempt = http.attempt(`https://127.0.0.1:${receiver.port}/hooks`, HEADERS, '{}');
  await http.close();
  t.deepEqual(await attempt, { kind: 'failed', error: 'the sender stopped before the attempt', unreachable: false });
  t.is(receiver.accepted(), 0);
});

test('a connection still being made when the client closes is cut: its address found afterwards connects nowhere', async (t) => {
  const receiver = await silentServer(t);
  let answer: (addresses: readonly LookupAddress[]) => void = () => undefined;
  let asked = false;
  // The name resolves when the test says: until then, the connection is being made.
  const resolve = (): Promise<readonly LookupAddress[]> => {
    asked = true;
    return new Promise((resolved) => (answer = resolved));
  };
  const http = new WebhookHttp({ timeoutMs: TEN_SECONDS, connections: 2, allowPrivate: true, resolve });
  const attempt = http.attempt(`https://hooks.example:${receiver.port}/hooks`, HEADERS, '{}');
  await waitFor('the connection to look its name up', () => asked);
  await http.close();
  t.is((await attempt).kind, 'failed');
  answer([{ address: '127.0.0.1', family: 4 }]);
  // A connection made after this one reaches the receiver after it would have: the receiver takes only this one.
  const marker = net.connect(receiver.port, '127.0.0.1');
  t.teardown(() => marker.destroy());
  await waitFor('the receiver to take the later connection', () => receiver.accepted() > 0);
  t.is(receiver.accepted(), 1, 'the cut connection never reached the receiver');
});
