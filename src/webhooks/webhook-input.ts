import type { WebhookEndpointChanges, WebhookEndpointFields, WebhookEventType, WebhookSubscription } from '../../workers/webhooks/webhook-protocol.js';
import { errorReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import { isJsonObject } from '../http/json-values.js';
import { refusedHostname } from './address-safety.js';
import type { WebhookErrorCode } from './webhook-errors.js';

export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;

/** Every event type: a record, so a type the store gains and this lacks fails to compile. */
const EVENT_TYPES: Readonly<Record<WebhookEventType, true>> = {
  'order.placed': true,
  'order.paid': true,
  'order.shipped': true,
  'order.delivered': true,
  'order.cancelled': true,
  'product.created': true,
  'product.updated': true,
  'product.deleted': true,
  'product.out_of_stock': true,
};
export const WEBHOOK_EVENT_TYPES = Object.keys(EVENT_TYPES) as WebhookEventType[];
const isEventType = (value: unknown): value is WebhookEventType => typeof value === 'string' && Object.hasOwn(EVENT_TYPES, value);

const invalid = (message: string): Validated<never> => ({ ok: false, error: errorReply('WEBHOOK_FIELD_INVALID' satisfies WebhookErrorCode, { message }) });

/** What the validators need of the settings. */
export interface WebhookInputRules {
  /** WEBHOOK_ALLOW_PRIVATE: loopback and private addresses are accepted (tests, a receiver on the same network). */
  readonly allowPrivate: boolean;
}

const URL_FORM = `url must be an absolute http: or https: URL of at most ${MAX_URL_LENGTH} characters`;

/**
 * An absolute http(s) URL, at most 2,048 characters, without a user name or
 * password (GET /webhooks shows URLs, and the signature is the credential),
 * whose host does not name this machine or a private, link-local,
 * unspecified or multicast address (unless allowed). A name that resolves
 * to one is refused at each attempt instead (DNS can change).
 */
function validateUrl(value: unknown, rules: WebhookInputRules): Validated<string> {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) return invalid(URL_FORM);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return invalid(URL_FORM);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return invalid(URL_FORM);
  if (url.username !== '' || url.password !== '') return invalid('url must not carry a user name or password: deliveries are signed instead');
  const refused = rules.allowPrivate ? undefined : refusedHostname(url.hostname);
  if (refused !== undefined) return invalid(`url is refused: ${refused} (WEBHOOK_ALLOW_PRIVATE=1 allows it)`);
  return { ok: true, value };
}

/** `["*"]` alone, or one or more distinct known types. */
function validateEvents(value: unknown): Validated<WebhookSubscription> {
  if (!Array.isArray(value) || value.length === 0) return invalid('events must be a non-empty array of event types, or ["*"]');
  const types = value as unknown[];
  if (types.length === 1 && types[0] === '*') return { ok: true, value: ['*'] };
  if (types.includes('*')) return invalid('events: "*" subscribes to every type and must be alone');
  const unknown = types.find((type) => !isEventType(type));
  if (unknown !== undefined) return invalid(`events: ${JSON.stringify(unknown)} is not an event type; the types are ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  if (new Set(types).size !== types.length) return invalid('events must be distinct');
  return { ok: true, value: types as WebhookEventType[] };
}

/** Characters as people count them (code points), not UTF-16 units. */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function validateDescription(value: unknown): Validated<string | null> {
  if (value === null) return { ok: true, value: null };
  if (typeof value !== 'string' || codePoints(value) > MAX_DESCRIPTION_LENGTH) return invalid(`description must be a string of at most ${MAX_DESCRIPTION_LENGTH} characters, or null`);
  return { ok: true, value };
}

/** POST /webhooks `{url, events, description?}`; description defaults to null. */
export function createValidator(rules: WebhookInputRules): (body: unknown) => Validated<WebhookEndpointFields> {
  return (body) => {
    if (!isJsonObject(body)) return invalid('the body must be a JSON object with url and events');
    const url = validateUrl(body.url, rules);
    if (!url.ok) return url;
    const events = validateEvents(body.events);
    if (!events.ok) return events;
    const description = validateDescription(body.description ?? null);
    if (!description.ok) return description;
    return { ok: true, value: { url: url.value, events: events.value, description: description.value } };
  };
}

/** PATCH /webhooks/:id `{url?, events?, description?, disabled?}`: each given field judged as on POST. */
export function updateValidator(rules: WebhookInputRules): (body: unknown) => Validated<WebhookEndpointChanges> {
  return (body) => {
    if (!isJsonObject(body)) return invalid('the body must be a JSON object with any of url, events, description and disabled');
    const changes: { -readonly [Key in keyof WebhookEndpointChanges]: WebhookEndpointChanges[Key] } = {};
    if (body.url !== undefined) {
      const url = validateUrl(body.url, rules);
      if (!url.ok) return url;
      changes.url = url.value;
    }
    if (body.events !== undefined) {
      const events = validateEvents(body.events);
      if (!events.ok) return events;
      changes.events = events.value;
    }
    if (body.description !== undefined) {
      const description = validateDescription(body.description);
      if (!description.ok) return description;
      changes.description = description.value;
    }
    if (body.disabled !== undefined) {
      if (typeof body.disabled !== 'boolean') return invalid('disabled must be true or false');
      changes.disabled = body.disabled;
    }
    return { ok: true, value: changes };
  };
}
