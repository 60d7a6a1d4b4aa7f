import type { DeliveryStatus, WebhookPageRequest } from '../../workers/webhooks/webhook-protocol.js';
import { errorReply } from '../http/reply.js';
import { FIRST_PAGE, readPageParameters } from '../http/page-parameters.js';
import type { Validated } from '../http/route.js';
import type { WebhookErrorCode } from './webhook-errors.js';

/** Every status a delivery can have, for the `status` filter: a record, so a status the store gains and this lacks fails to compile. */
const STATUSES: Readonly<Record<DeliveryStatus, true>> = { pending: true, delivered: true, failed: true };
export const DELIVERY_STATUSES = Object.keys(STATUSES) as DeliveryStatus[];
const isStatus = (value: string): value is DeliveryStatus => Object.hasOwn(STATUSES, value);

export interface DeliveryListQuery {
  readonly status: DeliveryStatus | null;
  readonly page: WebhookPageRequest;
}

const invalid = (message: string): Validated<never> => ({ ok: false, error: errorReply('WEBHOOK_PARAMETER_INVALID' satisfies WebhookErrorCode, { message }) });

/** GET /webhooks/:id/deliveries: `status` (one of the three) and the page (always paged: 20 by default). Other parameters are ignored. */
export function readDeliveryList(query: URLSearchParams): Validated<DeliveryListQuery> {
  const statuses = query.getAll('status');
  if (statuses.length > 1) return invalid('status is given more than once');
  const status = statuses[0] ?? null;
  if (status !== null && !isStatus(status)) return invalid(`status must be one of ${DELIVERY_STATUSES.join(', ')}`);
  const page = readPageParameters(query, invalid);
  if (!page.ok) return page;
  return { ok: true, value: { status, page: page.value ?? FIRST_PAGE } };
}

/** An event id as a receiver sees it, `evt_` and a number from 1; 0 (which names no event) for anything else, so the store answers 404. */
export function eventNumber(text: string | undefined): number {
  const match = /^evt_([1-9][0-9]{0,14})$/.exec(text ?? '');
  return match?.[1] === undefined ? 0 : Number(match[1]);
}
