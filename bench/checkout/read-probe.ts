/**
 * Issue 10: "GET /products/:id p99 under the checkout load stays within 2x
 * of its p99 alone". A shopper reading a product while others check out:
 * `GET /products/1` sent on a fixed schedule at a low rate (its own process,
 * read-probe-client.js), once alone and once beside scenario k's window, and
 * the two p99s are compared. The
 * rate is low on purpose: the probe must measure the wait a read meets, not
 * add load of its own (200 reads a second cost the server well under 1% of
 * a core, which k's CPU per order then carries). Beside a load that takes
 * all the server can give, a read waits behind every request already in:
 * the store answers in arrival order. So the read is also measured beside
 * the same load held at half that rate.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { LoadSettings } from '../harness/load.js';
import type { Measurement } from '../harness/measurement.js';

const PROBE_PATH = '/products/1';
const PROBE_RATE = 200;
const CLIENT = fileURLToPath(new URL('read-probe-client.js', import.meta.url));
const run = promisify(execFile);

interface ProbeResult {
  readonly count: number;
  readonly errors: number;
  readonly p99: number;
}

/**
 * The probe over the load's warm-up and window (a count is given a window of
 * one second per 2,000 requests, at least a quarter of a second: fifty reads,
 * for the smoke's few requests): its p99 in ms. Its own process, so the load
 * generator's busy event loop cannot delay its clock.
 */
async function probeP99(url: string, settings: LoadSettings): Promise<number> {
  const seconds = settings.requests === undefined ? settings.duration : Math.max(0.25, settings.requests / 2000);
  const { stdout } = await run(process.execPath, [CLIENT, url, PROBE_PATH, String(PROBE_RATE), String(settings.warmup), String(seconds)], { timeout: (settings.warmup + seconds + 60) * 1000 });
  const result = JSON.parse(stdout) as ProbeResult;
  if (result.errors > 0 || result.count === 0) throw new Error(`the read probe: ${result.errors} errors, ${result.count} reads answered 200`);
  return result.p99;
}

export interface ProbedMeasurement {
  readonly measurement: Measurement;
  /**
   * The probe's p99 (ms): alone, just before; beside the measured load (as
   * many requests as the server can answer: every request waits behind the
   * others); and beside the same load sent at half the rate it reached (the
   * server with room to spare, as a service is run).
   */
  readonly readP99: { readonly alone: number; readonly beside: number; readonly besideHalf: number };
}

/**
 * Measures the probe alone, then `load` with the probe beside it (both
 * windows start together: the same warm-up, then the same duration), then
 * again with the load held at half the rate it reached. The first load's
 * measurement is the case's.
 */
export async function measureWithReadProbe(url: string, load: (settings: LoadSettings) => Promise<Measurement>, settings: LoadSettings): Promise<ProbedMeasurement> {
  const alone = await probeP99(url, settings);
  const [measurement, beside] = await Promise.all([load(settings), probeP99(url, settings)]);
  const half = { ...settings, rate: Math.max(1, Math.round(measurement.requestsPerSecond / 2)) };
  const [, besideHalf] = await Promise.all([load(half), probeP99(url, half)]);
  return { measurement, readP99: { alone, beside, besideHalf } };
}
