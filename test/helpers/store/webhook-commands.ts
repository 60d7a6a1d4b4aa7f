/**
 * Random webhook commands for the store's model tests (store-commands.ts
 * adds them to the marketplace's steps): endpoints made, changed, disabled,
 * rotated and deleted, the sender's reads, outcomes and deferrals, retries by hand and
 * a pending cap small enough to drop deliveries. Endpoint ids 1 to 3
 * (mostly the prelude's 1, which hears every event) and event ids 1 to 6
 * (a run makes a few events), so that most commands find what they name.
 *
 * Times the sender chooses (`due`'s now, a retry's time) are offsets from
 * the batch's time, made times by `concreteWebhook` when the command runs.
 * Leases last 0 ms: a lease taken before a snapshot is not in it (leases
 * are memory only), so the store restored from it and the original give
 * the same answers only once every lease has run out, which a lease of
 * 0 ms has by the next `due` (its `now` never goes back).
 */
import fc from 'fast-check';
import type { StoreCommand } from '../../../workers/store-protocol.js';
import type { WebhookEventType, WebhookOutcome, WebhookSubscription } from '../../../workers/webhooks/webhook-protocol.js';

/** Mostly the prelude's endpoint, which every event goes to. */
const endpointId = fc.constantFrom(1, 1, 1, 2, 3);
const eventId = fc.integer({ min: 1, max: 6 });
const TYPES: readonly WebhookEventType[] = ['order.placed', 'order.paid', 'order.shipped', 'order.delivered', 'order.cancelled', 'product.created', 'product.updated', 'product.deleted', 'product.out_of_stock'];
const subscription: fc.Arbitrary<WebhookSubscription> = fc.oneof(fc.constant<WebhookSubscription>(['*']), fc.subarray([...TYPES], { minLength: 1 }));
const url = fc.constantFrom('https://hooks.example.com/a', 'https://hooks.example.com/b');
const secret = fc.constantFrom('whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=', 'whsec_ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=');
const outcome: fc.Arbitrary<WebhookOutcome> = fc
  .tuple(endpointId, eventId, fc.constantFrom('delivered', 'delivered', 'retry', 'retry', 'failed', 'gone'), fc.constantFrom(null, 200, 500, 410), fc.constantFrom(null, 'connection refused'), fc.constantFrom(0, 5000), fc.constantFrom(null, 0, 1))
  // With the attempts the sender saw (stale once a deferral or another outcome counted one), or without them, as journals before they were carried.
  .map(([endpoint, event, result, status, error, retryAfter, seen]): WebhookOutcome => {
    const settled = [endpoint, event, result, status, error, result === 'retry' ? retryAfter : null] as const;
    return seen === null ? settled : [...settled, seen];
  });

/** Every `due` reads the batch's time and this: never earlier than a lease taken before, as a sender's clock never goes back. */
const DUE_OFFSET_MS = 1000;

const one = (arbitrary: fc.Arbitrary<StoreCommand>): fc.Arbitrary<StoreCommand[]> => arbitrary.map((command) => [command]);

/** The webhook steps and their weights, for fc.oneof beside the marketplace's own. */
export const webhookSteps: { weight: number; arbitrary: fc.Arbitrary<StoreCommand[]> }[] = [
  { weight: 3, arbitrary: one(fc.tuple(url, subscription, fc.constantFrom(null, 'warehouse'), secret).map(([address, events, description, key]): StoreCommand => ({ kind: 'webhooks.create', fields: { url: address, events, description }, secret: key }))) },
  {
    weight: 2,
    arbitrary: one(
      fc
        .tuple(endpointId, fc.record({ url, events: subscription, description: fc.constantFrom(null, 'mailer'), disabled: fc.boolean() }, { requiredKeys: [] }))
        .map(([id, changes]): StoreCommand => ({ kind: 'webhooks.update', id, changes })),
    ),
  },
  { weight: 1, arbitrary: one(endpointId.map((id): StoreCommand => ({ kind: 'webhooks.delete', id }))) },
  { weight: 1, arbitrary: one(fc.tuple(endpointId, secret).map(([id, key]): StoreCommand => ({ kind: 'webhooks.rotate', id, secret: key }))) },
  { weight: 2, arbitrary: one(fc.tuple(endpointId, eventId).map(([id, event]): StoreCommand => ({ kind: 'webhooks.retry', id, eventId: event }))) },
  // An attempt's outcome, then an administrator's retry of the same delivery.
  { weight: 2, arbitrary: outcome.map((settled): StoreCommand[] => [{ kind: 'webhooks.settle', outcomes: [settled] }, { kind: 'webhooks.retry', id: settled[0], eventId: settled[1] }]) },
  {
    weight: 4,
    arbitrary: one(
      fc
        .tuple(fc.constantFrom(1, 2, 100), fc.constantFrom(1, 4), fc.constantFrom<number[]>([], [], [1], [2]))
        .map(([limit, perEndpoint, skip]): StoreCommand => ({ kind: 'webhooks.due', now: DUE_OFFSET_MS, limit, perEndpoint, leaseMs: 0, skip, release: skip.length > 0 ? [[1, 1]] : [] })),
    ),
  },
  { weight: 5, arbitrary: one(fc.array(outcome, { minLength: 1, maxLength: 6 }).map((outcomes): StoreCommand => ({ kind: 'webhooks.settle', outcomes }))) },
  { weight: 1, arbitrary: one(fc.constantFrom(1, 3, 100_000).map((pendingMax): StoreCommand => ({ kind: 'webhooks.limit', pendingMax }))) },
  {
    weight: 2,
    arbitrary: one(
      fc
        .tuple(endpointId, fc.constantFrom(0, DUE_OFFSET_MS, 10_000), fc.constantFrom<number[]>([1000], [1000, 5000], []))
        .map(([id, now, scheduleMs]): StoreCommand => ({ kind: 'webhooks.defer', endpointId: id, now, error: 'not sent: connection refused', scheduleMs, jitter: 0.1 })),
    ),
  },
  {
    weight: 1,
    arbitrary: one(
      fc
        .tuple(endpointId, fc.constantFrom(null, 'pending', 'delivered', 'failed' as const), fc.constantFrom(1, 2))
        .map(([id, status, page]): StoreCommand => ({ kind: 'webhooks.deliveries', id, status, page: { page, perPage: 3 } })),
    ),
  },
  { weight: 1, arbitrary: one(fc.constantFrom<StoreCommand>({ kind: 'webhooks.list' }, { kind: 'webhooks.get', id: 1 }, { kind: 'webhooks.probe', id: 2 })) },
];

/** A webhook command as it runs at `atMs`: the sender's offsets made times. */
export function concreteWebhook(command: StoreCommand, atMs: number): StoreCommand {
  if (command.kind === 'webhooks.due' || command.kind === 'webhooks.defer') return { ...command, now: atMs + command.now };
  if (command.kind === 'webhooks.settle') return { ...command, outcomes: command.outcomes.map(([endpoint, event, result, status, error, retryAt, ...seen]): WebhookOutcome => [endpoint, event, result, status, error, retryAt === null ? null : atMs + retryAt, ...seen]) };
  return command;
}
