import test from 'ava';
import net from 'node:net';
import { once } from 'node:events';
import { startService } from '../helpers/service/service.js';
import { EXPECT_CONTINUE, continued, finalResponse, untilRefused } from '../helpers/service/in-flight.js';

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} lets a request in flight finish, then exits 0`, async (t) => {
    const service = await startService();
    const body = JSON.stringify({ name: 'Late', description: 'arrives after the signal', price: 3 });
    const socket = net.connect(service.port, '127.0.0.1');
    await once(socket, 'connect');
    let response = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (response += chunk));
    // Headers and half the body, taken in by the service; the signal; once its stop has begun, the rest of the body.
    socket.write(`POST /products HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${EXPECT_CONTINUE}Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await continued(socket);
    const stopped = service.stop(signal);
    await untilRefused(service.port);
    // write, not end: Node's HTTP server closes a half-closed connection at once.
    socket.write(body.slice(10));
    const exit = await stopped;
    socket.destroy();
    t.regex(finalResponse(response), /^HTTP\/1\.1 201 Created/);
    t.regex(response, /"name":"Late"/);
    t.deepEqual(exit, { code: 0, signal: null });
  });
}

test('while stopping, new connections are refused and the request in flight still completes', async (t) => {
  const service = await startService();
  const body = JSON.stringify({ name: 'Slow', description: 'keeps the server busy', price: 2 });
  const socket = net.connect(service.port, '127.0.0.1');
  await once(socket, 'connect');
  let response = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (response += chunk));
  socket.write(`POST /products HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${EXPECT_CONTINUE}Content-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
  await continued(socket);
  const stopped = service.stop('SIGTERM');
  // Resolves only once a new connection is refused; a service that kept listening fails it at its ceiling.
  await t.notThrowsAsync(untilRefused(service.port), 'new connections are refused');
  t.is(service.child.exitCode, null, 'the service is still running: a request is in flight');
  socket.write(body.slice(5));
  t.is((await stopped).code, 0);
  socket.destroy();
  t.regex(finalResponse(response), /^HTTP\/1\.1 201 Created/);
});
