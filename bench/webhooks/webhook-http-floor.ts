/**
 * What one webhook attempt's HTTP costs the sending process, alone: the
 * sender's own client (src/webhooks/webhook-http.ts: undici's dispatcher,
 * four connections kept alive) POSTing a 1 KB body with the sender's
 * headers to the bench's receiver (webhook-receiver-client.js, a process of
 * its own), four at a time. Prints this process's CPU per request after a
 * warm-up: the floor under what a delivery can cost the service, whatever
 * the rest of the sender does.
 *
 *   node --import tsx bench/webhooks/webhook-http-floor.ts [--requests 20000]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { WebhookHttp } from '../../src/webhooks/webhook-http.js';
import { DeliverySigner } from '../../src/webhooks/webhook-signature.js';
import { readScriptOptions } from '../harness/script-options.js';

const RECEIVER = fileURLToPath(new URL('webhook-receiver-client.js', import.meta.url));
const requests = readScriptOptions(process.argv.slice(2), { '--requests': { fallback: 20_000, min: 1, unit: 'N' } }, []).count('--requests');

const receiver = spawn(process.execPath, [RECEIVER], { stdio: ['pipe', 'pipe', 'inherit'] });
const [line] = (await once(createInterface({ input: receiver.stdout as NodeJS.ReadableStream }), 'line')) as [string];
const { port } = JSON.parse(line) as { port: number };
const http = new WebhookHttp({ timeoutMs: 10_000, connections: 4, allowPrivate: true });
const signer = new DeliverySigner('catalogue-webhooks/bench');
const secret = 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=';
const body = JSON.stringify({ type: 'order.paid', timestamp: new Date().toISOString(), data: { note: 'x'.repeat(950) } });

async function send(count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next++ < count) {
        const result = await http.attempt(`http://127.0.0.1:${port}/ok`, signer.headers(next, Math.floor(Date.now() / 1000), [secret], body), body);
        if (result.kind !== 'answered' || result.status !== 204) throw new Error(`attempt ${next}: ${JSON.stringify(result)}`);
      }
    }),
  );
}

await send(Math.min(requests, 5000));
const before = process.cpuUsage();
const started = performance.now();
await send(requests);
const used = process.cpuUsage(before);
console.log(`${requests} attempts: ${((used.user + used.system) / requests).toFixed(1)} µs of this process's CPU each (${(used.system / requests).toFixed(1)} in the kernel), ${((requests / (performance.now() - started)) * 1000).toFixed(0)} a second; Node ${process.version}`);
await http.close();
receiver.stdin.end();
receiver.kill();
