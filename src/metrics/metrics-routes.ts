import { routesOf } from '../auth/identity.js';
import { textReply } from '../http/reply.js';
import type { AnswerDoc } from '../http/route-doc.js';

const EXPOSITION: AnswerDoc = { kind: 'text', contentTypes: ['text/plain'] };
import type { Registry } from 'prom-client';

/** GET /metrics: Prometheus' text format. Protectable with PROTECT like any route; off with METRICS=0. */
export function metricsRoutes(registry: Registry) {
  return [
    routesOf<never>()({
      method: 'GET',
      path: '/metrics',
      summary: 'Prometheus metrics: requests, latency, the store queue and batches, the process',
      doc: { answers: { 200: EXPOSITION }, description: "Prometheus' text exposition format (`text/plain; version=0.0.4`)." },
      action: { handle: async () => textReply(200, registry.contentType, await registry.metrics()) },
    }),
  ];
}
