import type { HttpErrorTable } from '../http/http-errors.js';
import type { WebhookStoreError } from '../../workers/webhooks/webhook-protocol.js';

/**
 * Webhook errors (contract section 8). The validators pass a message naming
 * the field or parameter, and for a refused URL what it names (never a
 * secret: none is in a URL the service accepts).
 */
export const WEBHOOK_ERRORS = {
  WEBHOOK_FIELD_INVALID: { status: 400, message: 'A webhook field is invalid' },
  WEBHOOK_PARAMETER_INVALID: { status: 400, message: 'A webhook list parameter is invalid' },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'Webhook endpoint not found' },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, message: 'This endpoint has no delivery of that event' },
  WEBHOOK_LIMIT: { status: 409, message: 'There are 100 webhook endpoints already: delete one first' },
} as const satisfies HttpErrorTable & Record<WebhookStoreError, unknown>;

export type WebhookErrorCode = keyof typeof WEBHOOK_ERRORS;
