/**
 * The front's half of a payment (src/payments/payment-flow.ts) against a
 * scripted store and processors that succeed, decline, throw, reject, hang
 * or are slow: the store is always told how a charge it began ended (nothing
 * stays charging), an expired card never reaches the processor, a full store
 * queue delays the finish instead of losing it, and neither the store nor the
 * log ever sees the card number or the cvc.
 */
import test from 'ava';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { paymentFlow } from '../../../src/payments/payment-flow.js';
import type { CardProcessor, ChargeOutcome, ChargeRequest } from '../../../src/payments/card-processor.js';
import { DECLINED_CARD, INSUFFICIENT_FUNDS_CARD, SimulatedCardProcessor } from '../../../src/payments/simulated-card-processor.js';
import type { CardInput } from '../../../src/payments/card-check.js';
import type { StoreClient, StoreReply } from '../../../src/store/store-client.js';
import type { IdempotencyClaim } from '../../../src/http/route.js';
import { createLogger } from '../../../src/log/logger.js';
import type { StoreCommand } from '../../../workers/store-protocol.js';
import { waitFor } from '../../helpers/wait-for.js';

const CARD: CardInput = { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '987' };
const CLAIM: IdempotencyClaim = { key: 'key-1', scope: 'POST /users/1/orders/2/payments', fingerprint: 'f' };
const CHARGING: StoreReply = { kind: 'charging', charge: { amountCents: 5997, currency: 'EUR' } };
const PAID: StoreReply = { kind: 'ok', body: '{"data":{"id":1}}' };

/** A store that answers the begin with `begin` and each finish with the next of `finishes` (the last one repeating). */
function scriptedStore(begin: StoreReply, ...finishes: StoreReply[]) {
  const sent: StoreCommand[] = [];
  const store: StoreClient = {
    send(command) {
      sent.push(command);
      if (command.kind === 'payments.begin') return Promise.resolve(begin);
      return Promise.resolve(finishes.length > 1 ? (finishes.shift() as StoreReply) : (finishes[0] ?? PAID));
    },
  };
  const finishesSent = () => sent.filter((command) => command.kind === 'payments.finish');
  return { store, sent, finishesSent };
}

function recordingProcessor(charge: (request: ChargeRequest) => Promise<ChargeOutcome>) {
  const requests: ChargeRequest[] = [];
  const processor: CardProcessor = {
    charge(request) {
      requests.push(request);
      return charge(request);
    },
  };
  return { processor, requests };
}

function run(parts: { store: StoreClient; processor: CardProcessor; now?: () => Date; processorTimeoutMs?: number }, card: CardInput = CARD, claim: IdempotencyClaim = CLAIM) {
  let logs = '';
  const log = createLogger('debug', (line) => (logs += line));
  const pay = paymentFlow({ ...parts, log });
  const reply = pay({ req: new IncomingMessage(new Socket()), clientAddress: '127.0.0.1', params: {}, ids: { userId: 1, orderId: 2 }, body: { card }, query: undefined, caller: undefined, conditions: {}, idempotency: claim });
  return { reply, logs: () => logs };
}

const resultOf = (command: StoreCommand | undefined) => (command?.kind === 'payments.finish' ? command.result : undefined);

test('a successful charge: the processor is asked for the store’s total, then the store is told brand and last four', async (t) => {
  const { store, sent, finishesSent } = scriptedStore(CHARGING, PAID);
  const { processor, requests } = recordingProcessor(() => Promise.resolve({ kind: 'succeeded', brand: 'visa', last4: '4242' }));
  const { reply } = run({ store, processor });
  t.deepEqual(await reply, { kind: 'json', status: 201, body: '{"data":{"id":1}}' });
  t.like(requests[0], { amountCents: 5997, currency: 'EUR', card: CARD });
  t.deepEqual(sent[0], { kind: 'payments.begin', userId: 1, orderId: 2, claim: CLAIM });
  t.deepEqual(resultOf(finishesSent()[0]), { kind: 'succeeded', brand: 'visa', last4: '4242' });
});

test('a refused begin (a replay, 404, 409) is the answer: no processor, no finish', async (t) => {
  const { store, finishesSent } = scriptedStore({ kind: 'refused', code: 'PAYMENT_ORDER_NOT_PENDING' });
  const { processor, requests } = recordingProcessor(() => Promise.reject(new Error('must not be called')));
  t.deepEqual(await run({ store, processor }).reply, { kind: 'error', code: 'PAYMENT_ORDER_NOT_PENDING' });
  t.is(requests.length, 0);
  t.is(finishesSent().length, 0);
});

test('an expired card (its month over, in UTC) is declined without asking the processor, and the charge is finished', async (t) => {
  const { store, finishesSent } = scriptedStore(CHARGING, { kind: 'refused', code: 'CARD_EXPIRED' });
  const { processor, requests } = recordingProcessor(() => Promise.reject(new Error('must not be called')));
  // 1 March 00:30 UTC: February's card has just expired, whatever the local time zone says.
  const now = () => new Date(Date.UTC(2027, 2, 1, 0, 30));
  const { reply } = run({ store, processor, now }, { ...CARD, expMonth: 2, expYear: 2027 });
  t.deepEqual(await reply, { kind: 'error', code: 'CARD_EXPIRED' });
  t.is(requests.length, 0);
  t.deepEqual(resultOf(finishesSent()[0]), { kind: 'declined', code: 'expired_card' });
});

test('the simulated processor: its two test numbers decline with their codes, any other valid number is charged', async (t) => {
  const processor = new SimulatedCardProcessor();
  const request = (number: string): ChargeRequest => ({ amountCents: 100, currency: 'EUR', card: { ...CARD, number }, reference: 'r' });
  t.deepEqual(await processor.charge(request(DECLINED_CARD)), { kind: 'declined', code: 'card_declined' });
  t.deepEqual(await processor.charge(request(INSUFFICIENT_FUNDS_CARD)), { kind: 'declined', code: 'insufficient_funds' });
  t.deepEqual(await processor.charge(request('5555555555554444')), { kind: 'succeeded', brand: 'mastercard', last4: '4444' });
  const slow = new SimulatedCardProcessor({ latencyMs: 50 });
  const started = performance.now();
  await slow.charge(request(CARD.number));
  t.true(performance.now() - started >= 45, 'its latency is what it was given');
});

for (const [what, charge] of [
  ['throws at once', (): Promise<ChargeOutcome> => {
    throw new Error(`gateway said no to ${CARD.number} / ${CARD.cvc}`);
  }],
  ['rejects', () => Promise.reject(new TypeError(`bad card ${CARD.number} cvc ${CARD.cvc}`))],
  ['rejects with the card number as its message', () => Promise.reject(new Error(CARD.number))],
] as const) {
  test(`a processor that ${what}: the charge is finished as failed (502) and the log names neither card nor message`, async (t) => {
    const { store, finishesSent } = scriptedStore(CHARGING, { kind: 'refused', code: 'CARD_PROCESSOR_FAILED' });
    const { reply, logs } = run({ store, processor: recordingProcessor(charge).processor });
    t.deepEqual(await reply, { kind: 'error', code: 'CARD_PROCESSOR_FAILED' });
    t.deepEqual(resultOf(finishesSent()[0]), { kind: 'failed' });
    t.regex(logs(), /card processor failed/);
    t.false(logs().includes(CARD.number));
    t.false(logs().includes('gateway said no'));
  });
}

test('a processor that never answers: the flow stops waiting after its time limit and finishes the charge as failed', async (t) => {
  const { store, finishesSent } = scriptedStore(CHARGING, { kind: 'refused', code: 'CARD_PROCESSOR_FAILED' });
  const { processor } = recordingProcessor(() => new Promise<ChargeOutcome>(() => {}));
  const { reply, logs } = run({ store, processor, processorTimeoutMs: 20 });
  t.deepEqual(await reply, { kind: 'error', code: 'CARD_PROCESSOR_FAILED' });
  t.deepEqual(resultOf(finishesSent()[0]), { kind: 'failed' });
  t.regex(logs(), /did not answer in time/);
});

test('a full store queue at the finish is waited out: the finish is sent again until the store takes it', async (t) => {
  const busy: StoreReply = { kind: 'busy' };
  const { store, finishesSent } = scriptedStore(CHARGING, busy, busy, busy, PAID);
  const { processor } = recordingProcessor(() => Promise.resolve({ kind: 'succeeded', brand: 'visa', last4: '4242' }));
  t.deepEqual(await run({ store, processor }).reply, { kind: 'json', status: 201, body: '{"data":{"id":1}}' });
  t.is(finishesSent().length, 4);
});

test('a finish the journal cannot take past the time limit (a full disk) is answered 503 and sent again until the store records the charge', async (t) => {
  let diskFull = true;
  const finishes: { readonly command: StoreCommand; readonly full: boolean }[] = [];
  const store: StoreClient = {
    send(command) {
      if (command.kind === 'payments.begin') return Promise.resolve(CHARGING);
      finishes.push({ command, full: diskFull });
      return Promise.resolve(diskFull ? { kind: 'unavailable', code: 'STORAGE_FULL' } : PAID);
    },
  };
  const { processor } = recordingProcessor(() => Promise.resolve({ kind: 'succeeded', brand: 'visa', last4: '4242' }));
  const { reply, logs } = run({ store, processor, processorTimeoutMs: 20 });
  t.deepEqual(await reply, { kind: 'error', code: 'STORAGE_FULL' }, 'the request is answered: 503, the key in progress');
  t.regex(logs(), /its finish could not be recorded yet/);
  diskFull = false;
  await waitFor('the finish recorded once the disk has room', () => /a finish sent again was recorded/.test(logs()));
  const taken = finishes.filter((finish) => !finish.full);
  t.is(taken.length, 1, 'sent until taken, then no more');
  t.deepEqual(resultOf(taken[0]?.command), { kind: 'succeeded', brand: 'visa', last4: '4242' }, 'the charge the processor made, not a failure');
});

test('a full store queue at the begin is 503: nothing began, nothing to finish', async (t) => {
  const { store, finishesSent } = scriptedStore({ kind: 'busy' });
  const { processor, requests } = recordingProcessor(() => Promise.reject(new Error('must not be called')));
  t.deepEqual(await run({ store, processor }).reply, { kind: 'error', code: 'STORE_BUSY' });
  t.is(requests.length + finishesSent().length, 0);
});

test('the processor’s reference is the same for a retry under one key and differs for another key or order', async (t) => {
  const references: string[] = [];
  for (const claim of [CLAIM, CLAIM, { ...CLAIM, key: 'key-2' }, { ...CLAIM, scope: 'POST /users/1/orders/3/payments' }]) {
    const { store } = scriptedStore(CHARGING, PAID);
    const { processor, requests } = recordingProcessor(() => Promise.resolve({ kind: 'succeeded', brand: 'visa', last4: '4242' }));
    // One flow per service start: retries within it share the reference.
    await run({ store, processor }, CARD, claim).reply;
    references.push(requests[0]?.reference ?? '');
  }
  t.is(new Set(references).size, 4, 'each start salts its references');
  const { store } = scriptedStore(CHARGING, PAID);
  const { processor, requests } = recordingProcessor(() => Promise.resolve({ kind: 'succeeded', brand: 'visa', last4: '4242' }));
  const pay = paymentFlow({ store, processor, log: createLogger('silent') });
  const input = { req: new IncomingMessage(new Socket()), clientAddress: '127.0.0.1', params: {}, ids: { userId: 1, orderId: 2 }, body: { card: CARD }, query: undefined, caller: undefined, conditions: {} };
  await pay({ ...input, idempotency: CLAIM });
  await pay({ ...input, idempotency: CLAIM });
  await pay({ ...input, idempotency: { ...CLAIM, key: 'key-2' } });
  t.is(requests[0]?.reference, requests[1]?.reference);
  t.not(requests[0]?.reference, requests[2]?.reference);
  t.false(requests[0]?.reference.includes('key-1'));
});

test('no command sent to the store carries the card number or the cvc', async (t) => {
  const { store, sent } = scriptedStore(CHARGING, PAID);
  const { processor } = recordingProcessor(() => Promise.resolve({ kind: 'succeeded', brand: 'visa', last4: '4242' }));
  await run({ store, processor }).reply;
  const text = JSON.stringify(sent);
  t.false(text.includes(CARD.number));
  t.false(text.includes(CARD.cvc));
});
