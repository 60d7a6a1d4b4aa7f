import { routesOf } from '../auth/identity.js';
import { jsonReply } from '../http/reply.js';
import { jsonAnswer, record } from '../http/route-doc.js';

const HEALTHY = jsonReply(200, JSON.stringify({ status: 'ok' }));

/** GET /health: answered by the front alone and never protected. */
export const healthRoutes = [
  routesOf<never>()({
    method: 'GET',
    path: '/health',
    summary: 'Liveness: 200 {"status":"ok"} while the service runs',
    protection: 'open',
    doc: { answers: { 200: jsonAnswer(record({ status: { const: 'ok' } })) } },
    action: { handle: () => HEALTHY },
  }),
];
