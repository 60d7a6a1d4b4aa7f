/**
 * The read probe's client (read-probe.ts), plain JavaScript so that it starts
 * in milliseconds without a TypeScript loader, run as its own process so that
 * the load generator's event loop, busy with a hundred connections, does not
 * delay its sends or its clocks: `GET <url><path>` every 1/rate seconds on
 * keep-alive connections, each timed from its send to the end of its
 * answer; the first `warmup` seconds are not counted. Prints one JSON line:
 * `{"count", "errors", "p50", "p99"}` (ms).
 */
import http from 'node:http';
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { URL } from 'node:url';
import { performance } from 'node:perf_hooks';

const [url = '', path = '/', rateText = '200', warmupText = '0', durationText = '5'] = process.argv.slice(2);
const rate = Number(rateText);
const warmupMs = Number(warmupText) * 1000;
const endMs = warmupMs + Number(durationText) * 1000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
/** @type {number[]} */
const latencies = [];
let errors = 0;
let outstanding = 0;
const started = performance.now();

function send() {
  const sentAt = performance.now();
  const counted = sentAt - started >= warmupMs;
  outstanding++;
  const request = http.get(new URL(path, url), { agent }, (response) => {
    response.resume();
    response.on('end', () => {
      outstanding--;
      if (response.statusCode !== 200) errors++;
      else if (counted) latencies.push(performance.now() - sentAt);
    });
  });
  request.on('error', () => {
    outstanding--;
    errors++;
  });
}

// Sends on a schedule (n / rate seconds from the start), not after each answer: a slow answer does not delay the next read.
let sent = 0;
function tick() {
  const elapsed = performance.now() - started;
  while (sent * (1000 / rate) <= elapsed && elapsed < endMs) {
    send();
    sent++;
  }
  if (elapsed < endMs) setTimeout(tick, 1);
  else finish();
}

function finish() {
  if (outstanding > 0) {
    setTimeout(finish, 5);
    return;
  }
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  /** @param {number} q */
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
  process.stdout.write(`${JSON.stringify({ count: sorted.length, errors, p50: at(0.5), p99: at(0.99) })}\n`);
}

tick();
