/**
 * The event probe of issue 18's bench: a process of its own
 * (stream-probe-client.js, so that the load generator's busy event loop
 * cannot delay its clock) follows four customers' orders through their life,
 * each change's event timed from the change to its arrival.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { CheckoutShop, Customer } from '../checkout/checkout.js';
import type { LoadSettings } from '../harness/load.js';

const run = promisify(execFile);
const PROBE = fileURLToPath(new URL('stream-probe-client.js', import.meta.url));

export interface ProbeResult {
  readonly count: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly orders: number;
}

export async function probe(url: string, shop: CheckoutShop, customers: readonly Customer[], adminKey: string, settings: LoadSettings): Promise<ProbeResult> {
  const args = [PROBE, url, String(shop.productId), adminKey, String(settings.warmup), String(settings.duration), ...customers.map((customer) => `${customer.token}:${customer.addressId}`)];
  const { stdout } = await run(process.execPath, args, { timeout: (settings.warmup + settings.duration + 60) * 1000 });
  return JSON.parse(stdout) as ProbeResult;
}
