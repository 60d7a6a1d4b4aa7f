import { routesOf } from '../auth/identity.js';
import { textReply } from '../http/reply.js';
import type { Registry } from 'prom-client';

/** GET /metrics: Prometheus' text format. Protectable with PROTECT like any route; off with METRICS=0. */
export function metricsRoutes(registry: Registry) {
  return [
    routesOf<never>()({
      method: 'GET',
      path: '/metrics',
      summary: 'Prometheus metrics: requests, latency, the store queue and batches, the process',
      action: { handle: async () => textReply(200, registry.contentType, await registry.metrics()) },
    }),
  ];
}
