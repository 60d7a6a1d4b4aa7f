/**
 * The webhooks bench's receiver (webhooks.ts), plain JavaScript in a process
 * of its own (on the harness's core), as a shop's other system would run it
 * beside the service: POST /ok answers 204 and times the delivery from the
 * change (the event body's `timestamp`, the store's clock when the batch
 * that made it began) to its arrival here, same machine, same clock; POST
 * /never reads the request and never answers (a dead endpoint that holds
 * its connections). No signature is checked: that is the receiver's cost,
 * not the service's.
 *
 * Prints `{"port"}` once listening; then reads lines on stdin: `reset` clears
 * the figures, `report` prints `{"count", "p50", "p99", "max", "held"}` (ms).
 */
import http from 'node:http';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

/** @type {number[]} */
let latencies = [];
/** @type {import('node:http').ServerResponse[]} */
const held = [];
const TIMESTAMP = /"timestamp":"([^"]+)"/;

const server = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    if (request.url === '/never') {
      held.push(response);
      return;
    }
    const arrived = performance.timeOrigin + performance.now();
    const at = TIMESTAMP.exec(body)?.[1];
    if (at !== undefined) latencies.push(arrived - Date.parse(at));
    response.writeHead(204);
    response.end();
  });
});
server.keepAliveTimeout = 60_000;

/**
 * @param {number[]} sorted
 * @param {number} fraction
 */
const quantile = (sorted, fraction) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]);

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address !== null ? address.port : 0 })}\n`);
});

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'reset') {
    latencies = [];
    process.stdout.write('{"reset":true}\n');
  } else if (line === 'report') {
    const sorted = [...latencies].sort((a, b) => a - b);
    process.stdout.write(`${JSON.stringify({ count: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN, held: held.length })}\n`);
  }
});
process.stdin.on('end', () => {
  for (const response of held) response.destroy();
  server.close();
  server.closeAllConnections();
});
