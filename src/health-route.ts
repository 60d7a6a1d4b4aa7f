import type { RouteDefinition } from './route-table.js';
import { sendJson } from './reply.js';

const HEALTHY = JSON.stringify({ status: 'ok' });

/** GET /health: answered by the front alone and never protected. */
export const healthRoute: RouteDefinition = {
  path: '/health',
  open: true,
  handlers: { GET: ({ res }) => sendJson(res, 200, HEALTHY) },
};
