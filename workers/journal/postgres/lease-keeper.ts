/**
 * The writer's lease renewed on a thread of its own (DATABASE_URL), on a
 * connection of its own, so that nothing the store thread does can starve
 * the renewal: a long batch, a replay, a major garbage collection of a large
 * store all stall the store thread's event loop, and a renewal timer there
 * fires only once the stall is over, by which time a follower may have taken
 * the lease (issue 29). Renewing beside a busy store thread is safe: the
 * fence is the term in every append (postgres-journal.ts), not the renewal.
 *
 * A store thread that is not busy but hung must not hold the lease for
 * ever, though: the store thread beats a shared counter (writer-lease.ts),
 * and once it has not moved for STALL_LEASES leases the keeper stops
 * renewing, the lease runs out, and a follower takes over. A SIGSTOP stops
 * every thread of the process, this one too.
 *
 * It tells the store thread when a renewal finds the lease taken (`lost`),
 * and whether PostgreSQL answers it; asked to stop, it waits for a renewal
 * under way, so that none lands after a clean stop's release.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseLink, Reachability } from './database-link.js';

/** How many leases without a beat of the store thread before the keeper lets the lease run out. */
export const STALL_LEASES = 5;

export interface LeaseKeeperData {
  readonly url: string;
  readonly instance: string;
  readonly seconds: number;
  readonly term: number;
  readonly advertisedUrl: string | null;
  /** An Int32Array's buffer the store thread adds one to every third of a lease. */
  readonly heartbeat: SharedArrayBuffer;
}

/** From the store thread: where this instance is reached now (kept in the row at each renewal); or stop renewing and say `stopped`. */
export type LeaseKeeperOrder = { readonly advertise: string } | { readonly stop: true };

/** To the store thread. */
export type LeaseKeeperNews =
  | { readonly lost: string }
  | { readonly unreachable: string }
  | { readonly reachable: true }
  | { readonly stalled: number }
  | { readonly stopped: true };

/** Renews the lease of `term` for `seconds` from now: false when another instance holds it now. */
export async function renewLease(link: DatabaseLink, seconds: number, term: number, url: string | null): Promise<boolean> {
  // The URL too: an advertise() whose update PostgreSQL did not take is made good here.
  const renewed = await link.query('UPDATE catalogue_lease SET expires_at = now() + make_interval(secs => $1), url = $3 WHERE id = 1 AND term = $2', [seconds, term, url]);
  return renewed.rowCount === 1;
}

function keep(data: LeaseKeeperData, port: NonNullable<typeof parentPort>): void {
  const tell = (news: LeaseKeeperNews): void => port.postMessage(news);
  const reachability = new Reachability((notice) => {
    if (notice.notice === 'database-unreachable') tell({ unreachable: notice.reason });
    else if (notice.notice === 'database-reachable') tell({ reachable: true });
  });
  const link = new DatabaseLink({ url: data.url, applicationName: `catalogue lease keeper (${data.instance})` }, reachability);
  const beats = new Int32Array(data.heartbeat);
  const leaseMs = data.seconds * 1000;
  let url = data.advertisedUrl;
  let lastBeat = Atomics.load(beats, 0);
  let beatAt = performance.now();
  let saidStalled = false;
  let renewing: Promise<unknown> = Promise.resolve();
  const renewal = setInterval(() => {
    const beat = Atomics.load(beats, 0);
    if (beat !== lastBeat) {
      lastBeat = beat;
      beatAt = performance.now();
      saidStalled = false;
    }
    const stalledMs = performance.now() - beatAt;
    if (stalledMs > STALL_LEASES * leaseMs) {
      if (!saidStalled) tell({ stalled: Math.round(stalledMs / 1000) });
      saidStalled = true;
      return;
    }
    renewing = renewLease(link, data.seconds, data.term, url).then(
      (held) => {
        if (held) return;
        clearInterval(renewal);
        tell({ lost: `the writer's lease of term ${data.term} was taken over by another instance` });
      },
      // PostgreSQL away: tried again at the next tick, for as long as it takes (the term decides once it answers).
      () => undefined,
    );
  }, leaseMs / 3);
  port.on('message', (order: LeaseKeeperOrder) => {
    if ('advertise' in order) {
      url = order.advertise;
      return;
    }
    clearInterval(renewal);
    void renewing.then(async () => {
      await link.end().catch(() => undefined);
      tell({ stopped: true });
      port.close();
    });
  });
}

if (parentPort !== null) keep(workerData as LeaseKeeperData, parentPort);
