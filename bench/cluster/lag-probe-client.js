/**
 * The replication-lag probe's client (cluster.ts), plain JavaScript run as a
 * process of its own so that the load generator's busy event loop does not
 * delay its clocks. Every `interval` ms it asks the writer's /health for the
 * journal sequence it has on disk (S), then asks each follower's /health back
 * to back until it says it applied S or more; a sample is the time from the
 * writer's answer to that follower's. Samples of the first `warmup` seconds
 * are not counted. Prints one JSON line: `{"count", "timeouts", "errors",
 * "p50", "p99", "max"}` (ms).
 */
import http from 'node:http';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const [writer = '', followersText = '', intervalText = '20', warmupText = '0', durationText = '5'] = process.argv.slice(2);
const followers = followersText.split(',').filter((url) => url !== '');
const intervalMs = Number(intervalText);
const warmupMs = Number(warmupText) * 1000;
const endMs = warmupMs + Number(durationText) * 1000;
/** A follower that has not reached S in this long counts as a timeout (the sample is lost, not clipped). */
const GIVE_UP_MS = 5_000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/**
 * The applied sequence a /health answers.
 * @param {string} url
 * @returns {Promise<number>}
 */
function appliedSeq(url) {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/health`, { agent }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      response.on('end', () => {
        const seq = JSON.parse(body).appliedSeq;
        if (typeof seq === 'number') resolve(seq);
        else reject(new Error(`no appliedSeq in ${body}`));
      });
    });
    request.on('error', reject);
  });
}

/** @type {number[]} */
const samples = [];
let timeouts = 0;
let errors = 0;
const started = performance.now();

/**
 * Ms from `since` until the follower at `url` says it applied `target`; undefined past GIVE_UP_MS.
 * @param {string} url @param {number} target @param {number} since
 * @returns {Promise<number | undefined>}
 */
async function follow(url, target, since) {
  for (;;) {
    const seq = await appliedSeq(url);
    const now = performance.now();
    if (seq >= target) return now - since;
    if (now - since > GIVE_UP_MS) return undefined;
  }
}

while (performance.now() - started < endMs) {
  const next = performance.now() + intervalMs;
  try {
    const target = await appliedSeq(writer);
    const since = performance.now();
    const lags = await Promise.all(followers.map((url) => follow(url, target, since)));
    if (since - started >= warmupMs) {
      for (const lag of lags) {
        if (lag === undefined) timeouts++;
        else samples.push(lag);
      }
    }
  } catch {
    errors++;
  }
  const wait = next - performance.now();
  if (wait > 0) await sleep(wait);
}
agent.destroy();
samples.sort((a, b) => a - b);
/** @param {number} q */
const at = (q) => samples[Math.min(samples.length - 1, Math.max(0, Math.ceil(q * samples.length) - 1))] ?? Number.NaN;
process.stdout.write(`${JSON.stringify({ count: samples.length, timeouts, errors, p50: at(0.5), p99: at(0.99), max: at(1) })}\n`);
