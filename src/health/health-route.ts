import { routesOf } from '../auth/identity.js';
import { jsonReply } from '../http/reply.js';
import { jsonAnswer, record } from '../http/route-doc.js';
import type { ClusterStatus } from '../store/cluster-status.js';
import type { StorageStatus } from '../store/storage-status.js';

const HEALTHY = jsonReply(200, JSON.stringify({ status: 'ok' }));
const STORAGE_OK = jsonReply(200, JSON.stringify({ status: 'ok', storage: 'ok' }));
const STORAGE_FULL = jsonReply(200, JSON.stringify({ status: 'ok', storage: 'full' }));

const CLUSTER_HEALTH = record({
  status: { const: 'ok' },
  role: { enum: ['writer', 'follower'] },
  appliedSeq: { type: 'integer', minimum: 0 },
  lag: record({ commands: { type: 'integer', minimum: 0 }, seconds: { type: 'number', minimum: 0 } }),
  database: { enum: ['reachable', 'unreachable'] },
  stepDowns: { type: 'integer', minimum: 0 },
  reloads: { type: 'integer', minimum: 0 },
});

const STORAGE_HEALTH = record({ status: { const: 'ok' }, storage: { enum: ['ok', 'full'] } });

/** What /health says beyond `status`, by where the journal lives. */
export interface HealthSources {
  /** DATABASE_URL: this instance's role and lag, and whether PostgreSQL answers. */
  readonly cluster?: ClusterStatus;
  /** DATA_DIR: whether its disk had room for the last flush. */
  readonly storage?: StorageStatus;
}

/**
 * GET /health: answered by the front alone and never protected; without a
 * journal, exactly the contract's `{"status":"ok"}`. With DATABASE_URL it
 * also says whether this instance writes or follows, the journal sequence it
 * has applied, how far behind the writer it is, whether PostgreSQL answers
 * it, and how often it stepped down (a writer that found its lease taken)
 * and reloaded from the newest snapshot; with DATA_DIR, whether its disk is full. Still 200 while
 * PostgreSQL is away or the disk is full: the instance serves reads then,
 * and a balancer that took it out would lose them.
 */
export function healthRoutes({ cluster, storage }: HealthSources = {}) {
  if (cluster !== undefined) {
    return [
      routesOf<never>()({
        method: 'GET',
        path: '/health',
        summary:
          'Liveness, and this instance among those on one DATABASE_URL: its role, the journal sequence applied, the lag behind the writer, whether PostgreSQL answers, and how often it stepped down from writer to follower and reloaded from the newest snapshot',
        protection: 'open',
        doc: { answers: { 200: jsonAnswer(CLUSTER_HEALTH) } },
        action: {
          handle: () => {
            const { role, appliedSeq, lag, database, stepDowns, reloads } = cluster.view();
            return jsonReply(200, JSON.stringify({ status: 'ok', role, appliedSeq, lag, database, stepDowns, reloads }));
          },
        },
      }),
    ];
  }
  if (storage !== undefined) {
    return [
      routesOf<never>()({
        method: 'GET',
        path: '/health',
        summary: 'Liveness, and whether the disk of DATA_DIR had room for the last write (`full`: writes are refused, reads go on)',
        protection: 'open',
        doc: { answers: { 200: jsonAnswer(STORAGE_HEALTH) } },
        action: { handle: () => (storage.full ? STORAGE_FULL : STORAGE_OK) },
      }),
    ];
  }
  return [
    routesOf<never>()({
      method: 'GET',
      path: '/health',
      summary: 'Liveness: 200 {"status":"ok"} while the service runs',
      protection: 'open',
      doc: { answers: { 200: jsonAnswer(record({ status: { const: 'ok' } })) } },
      action: { handle: () => HEALTHY },
    }),
  ];
}
