/**
 * Regression (hardening issue, finding 4): the timeouts were Node's defaults,
 * so a slow body upload was cut only after 300 s and a slow header after
 * about 80 s. HEADERS_TIMEOUT and REQUEST_TIMEOUT now cut slow clients on
 * time, while other clients are served meanwhile.
 */
import test from 'ava';
import net from 'node:net';
import { once } from 'node:events';
import { getJson, ownService } from '../../helpers/api/product-api.js';

interface Cut {
  /** What the service sent before closing, if anything. */
  readonly received: string;
  readonly afterMs: number;
}

/** Opens a connection, writes `head`, then trickles `drip` one byte at a time until the service closes it. */
async function trickle(port: number, head: string, drip: string): Promise<Cut> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const started = Date.now();
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  socket.write(head);
  let index = 0;
  // Slow on purpose, and the slowness is what is tested: a byte every 200 ms, so the connection is
  // never idle and only the timeout under test can cut it.
  const dripper = setInterval(() => {
    if (!socket.destroyed && index < drip.length) socket.write(drip.charAt(index++));
  }, 200);
  await once(socket, 'close');
  clearInterval(dripper);
  return { received, afterMs: Date.now() - started };
}

test('a body trickled slower than REQUEST_TIMEOUT is cut on time (408), and other clients are served meanwhile', async (t) => {
  const service = await ownService(t, { env: { HEADERS_TIMEOUT: '1', REQUEST_TIMEOUT: '2' } });
  const body = JSON.stringify({ name: 'Slow', description: 'one byte at a time', price: 1 });
  const slow = trickle(service.port, `POST /products HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, body);
  for (let index = 0; index < 5; index++) t.is((await getJson(service, '/products/1')).status, 200);
  const cut = await slow;
  t.log(`cut after ${cut.afterMs} ms: ${JSON.stringify(cut.received.split('\r\n')[0])}`);
  t.true(cut.afterMs >= 1_900, `cut after only ${cut.afterMs} ms`);
  // REQUEST_TIMEOUT plus Node's once-a-second check, with room for a busy machine.
  t.true(cut.afterMs < 8_000, `cut after ${cut.afterMs} ms`);
  t.regex(cut.received, /^(HTTP\/1\.1 408|$)/);
  t.notRegex(cut.received, /201 Created/);
  t.is((await getJson(service, '/products')).status, 200, 'the service still serves');
});

test('headers trickled slower than HEADERS_TIMEOUT are cut on time', async (t) => {
  const service = await ownService(t, { env: { HEADERS_TIMEOUT: '1', REQUEST_TIMEOUT: '5' } });
  const slow = trickle(service.port, 'GET /products/1 HTTP/1.1\r\n', 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n');
  t.is((await getJson(service, '/health')).status, 200);
  const cut = await slow;
  t.log(`cut after ${cut.afterMs} ms: ${JSON.stringify(cut.received.split('\r\n')[0])}`);
  t.true(cut.afterMs >= 900, `cut after only ${cut.afterMs} ms`);
  t.true(cut.afterMs < 6_000, `cut after ${cut.afterMs} ms`);
  t.notRegex(cut.received, /200 OK/);
});

test('an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT', async (t) => {
  const service = await ownService(t, { env: { KEEP_ALIVE_TIMEOUT: '1' } });
  const socket = net.connect(service.port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
  const [first] = (await once(socket, 'data')) as [Buffer];
  t.regex(first.toString(), /Keep-Alive: timeout=1/i);
  const started = Date.now();
  await once(socket, 'close');
  const idle = Date.now() - started;
  t.true(idle >= 900 && idle < 6_000, `closed after ${idle} ms idle`);
});
