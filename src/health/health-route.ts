import { routesOf } from '../auth/identity.js';
import { jsonReply } from '../http/reply.js';
import { jsonAnswer, record } from '../http/route-doc.js';
import type { ClusterStatus } from '../store/cluster-status.js';

const HEALTHY = jsonReply(200, JSON.stringify({ status: 'ok' }));

const CLUSTER_HEALTH = record({
  status: { const: 'ok' },
  role: { enum: ['writer', 'follower'] },
  appliedSeq: { type: 'integer', minimum: 0 },
  lag: record({ commands: { type: 'integer', minimum: 0 }, seconds: { type: 'number', minimum: 0 } }),
  database: { enum: ['reachable', 'unreachable'] },
});

/**
 * GET /health: answered by the front alone and never protected. With
 * DATABASE_URL it also says whether this instance writes or follows, the
 * journal sequence it has applied, how far behind the writer it is, and
 * whether PostgreSQL answers it. Still 200 while PostgreSQL is away: the
 * instance serves reads then, and a balancer that took it out would lose them.
 */
export function healthRoutes(cluster?: ClusterStatus) {
  if (cluster === undefined) {
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
  return [
    routesOf<never>()({
      method: 'GET',
      path: '/health',
      summary: 'Liveness, and this instance among those on one DATABASE_URL: its role, the journal sequence applied, the lag behind the writer, whether PostgreSQL answers',
      protection: 'open',
      doc: { answers: { 200: jsonAnswer(CLUSTER_HEALTH) } },
      action: {
        handle: () => {
          const { role, appliedSeq, lag, database } = cluster.view();
          return jsonReply(200, JSON.stringify({ status: 'ok', role, appliedSeq, lag, database }));
        },
      },
    }),
  ];
}
