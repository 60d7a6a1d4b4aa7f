/**
 * What the journal benches share (journal-throughput.ts, cluster/cluster.ts): the two
 * write-heavy cases, e for the catalogue and k for the marketplace's checkout,
 * and the journal's counters read from /metrics.
 */
import { checkoutPlan, setUpCheckout } from '../checkout/checkout.js';
import { measure, type LoadSettings } from '../harness/load.js';
import type { Measurement } from '../harness/measurement.js';
import type { LoadPlan } from '../harness/load-plan.js';
import { SCENARIOS, seededRandom } from '../http/scenarios.js';
import type { RunningServer } from '../harness/servers.js';

/** A scenario of this run: the server it needs and how to make its plan once the server is up. */
export interface Case {
  readonly id: 'e' | 'f' | 'k';
  readonly server: string;
  readonly describe: string;
  readonly plan: (server: RunningServer, connections: number) => Promise<LoadPlan>;
}

export const CASES: readonly Case[] = [
  {
    id: 'e',
    server: 'catalogue',
    describe: 'POST /products then DELETE it',
    plan: () => {
      const scenario = SCENARIOS.find((candidate) => candidate.id === 'e');
      if (scenario?.family !== 'catalogue') throw new Error('scenario e is not in bench/http/scenarios.ts');
      return Promise.resolve(scenario.plan(10, seededRandom(1)));
    },
  },
  {
    id: 'k',
    server: 'catalogue-marketplace',
    describe: 'PUT cart item, POST order, POST payment',
    // Twice as many customers as connections, as http/run.ts's k.
    plan: async (server, connections) => checkoutPlan((await setUpCheckout(server.url, server.definition.adminHeaders ?? {}, connections * 2)).shop),
  },
];

/** f, PUT /products/3: a write of a product that stays, beside e's create and delete (journal-throughput.ts; issue 30). */
export const PUT_CASE: Case = {
  id: 'f',
  server: 'catalogue',
  describe: 'PUT /products/3',
  plan: () => {
    const scenario = SCENARIOS.find((candidate) => candidate.id === 'f');
    if (scenario?.family !== 'catalogue') throw new Error('scenario f is not in bench/http/scenarios.ts');
    return Promise.resolve(scenario.plan(10, seededRandom(1)));
  },
};

export interface JournalCounters {
  readonly flushes: number;
  readonly commands: number;
  readonly bytes: number;
  readonly flushSeconds: number;
}

export async function journalCounters(url: string): Promise<JournalCounters> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string): number => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    flushes: value('catalogue_journal_flushes_total'),
    commands: value('catalogue_journal_commands_total'),
    bytes: value('catalogue_journal_bytes_total'),
    flushSeconds: value('catalogue_journal_flush_seconds_sum'),
  };
}

/** A window on `server` (settled after its warm-up), with the journal's counters read right before it and right after; `atStart` is called as it begins. */
export async function measureWithJournal(server: RunningServer, plan: LoadPlan, settings: LoadSettings, atStart?: () => void): Promise<{ measurement: Measurement; before: JournalCounters; after: JournalCounters }> {
  let before: JournalCounters | undefined;
  const measurement = await measure(server.url, server.pid, server.headers, plan, { ...settings, settle: true }, async () => {
    before = await journalCounters(server.url);
    atStart?.();
  });
  const after = await journalCounters(server.url);
  if (before === undefined) throw new Error('the journal counters were not read before the window');
  return { measurement, before, after };
}

export const median = (values: readonly number[]): number => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

