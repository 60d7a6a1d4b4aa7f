/**
 * Issue 10: "GET /products/:id p99 under the checkout load stays within 2x
 * of its p99 alone". A shopper reading a product while others check out: a
 * few connections send `GET /products/1` at a fixed, low rate, once alone
 * and once beside scenario k's window, and the two p99s are compared. The
 * rate is low on purpose: the probe must measure the wait a read meets, not
 * add load of its own (200 reads a second cost the server well under 1% of
 * a core, which k's CPU per order then carries).
 */
import type { LoadPlan } from './load-plan.js';
import { measure, type LoadSettings, type Measurement } from './load.js';
import { dataOf, isRecord } from './product-shapes.js';

const PROBE_PATH = '/products/1';
const PROBE_RATE = 200;
const PROBE_CONNECTIONS = 4;

const PROBE_PLAN: LoadPlan = {
  steps: [{ fixed: { kind: 'read', method: 'GET', path: PROBE_PATH } }],
  kinds: {
    read: {
      label: `GET ${PROBE_PATH}`,
      status: 200,
      check: (response) => {
        const parsed = dataOf(response);
        if (typeof parsed === 'string') return parsed;
        return isRecord(parsed.data) && parsed.data.id === 1 ? undefined : `not product 1: ${response.body.slice(0, 120)}`;
      },
    },
  },
};

/** The probe's load: the window (or count) and warm-up of the load it runs beside, at its own rate. */
function probeSettings(beside: LoadSettings): LoadSettings {
  return {
    connections: PROBE_CONNECTIONS,
    duration: beside.duration,
    requests: beside.requests === undefined ? undefined : Math.max(20, Math.round(beside.requests / 10)),
    warmup: beside.warmup,
    rate: PROBE_RATE,
  };
}

/** The probe's p99 in ms, from a measurement of it, or why it has none. */
function p99Of(m: Measurement): number {
  if (m.problems.length > 0) throw new Error(`the read probe: ${m.problems.join('; ')}`);
  return m.p99Ms;
}

export interface ProbedMeasurement {
  readonly measurement: Measurement;
  /** The probe's p99 (ms) alone, just before, and beside the measured load. */
  readonly readP99: { readonly alone: number; readonly beside: number };
}

/**
 * Measures the probe alone, then `load` with the probe beside it (both
 * windows start together: the same warm-up, then the same duration).
 */
export async function measureWithReadProbe(url: string, pid: number, load: () => Promise<Measurement>, settings: LoadSettings): Promise<ProbedMeasurement> {
  const probe = probeSettings(settings);
  const alone = p99Of(await measure(url, pid, {}, PROBE_PLAN, probe));
  const [measurement, beside] = await Promise.all([load(), measure(url, pid, {}, PROBE_PLAN, probe)]);
  return { measurement, readP99: { alone, beside: p99Of(beside) } };
}
