import type { WebhookOutcome, WebhookSend } from '../../workers/webhooks/webhook-protocol.js';
import type { AttemptResult } from './webhook-http.js';

/** Retries come after their step's delay and up to this much more of it, so that deliveries failed together do not all come back together. */
export const JITTER = 0.1;

/**
 * What an attempt means for its delivery, decided in the front and carried
 * to the store as it is (the retry's time included, jitter and all, so a
 * replay reads the same): a 2xx delivers; 410 Gone fails it and disables
 * the endpoint; anything else (another status, a redirect, no answer) is
 * retried after the schedule's step for this attempt, or fails once the
 * schedule is spent.
 */
export function outcomeOf(send: WebhookSend, result: AttemptResult, scheduleMs: readonly number[], now: number, random: () => number): WebhookOutcome {
  const { endpointId, eventId, step, attempts } = send;
  const status = result.kind === 'answered' ? result.status : null;
  if (status !== null && status >= 200 && status < 300) return [endpointId, eventId, 'delivered', status, null, null, attempts];
  if (status === 410) return [endpointId, eventId, 'gone', status, 'the endpoint answered 410 Gone: it is disabled', null, attempts];
  const error = result.kind === 'failed' ? result.error : status !== null && status >= 300 && status < 400 ? `a redirect (${status}) is not followed` : null;
  const delay = scheduleMs[step];
  if (delay === undefined) return [endpointId, eventId, 'failed', status, error, null, attempts];
  return [endpointId, eventId, 'retry', status, error, Math.round(now + delay * (1 + JITTER * random())), attempts];
}
