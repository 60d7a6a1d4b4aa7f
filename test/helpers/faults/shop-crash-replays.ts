/**
 * What a client does after the crash, and what it must get: the write that
 * was in flight sent again with the same Idempotency-Key (applied: the first
 * answer, replayed; not applied: done now, once), and an acknowledged
 * placement or payment repeated with its key: the first answer, byte for
 * byte, with Idempotent-Replayed: true.
 */
import { call, dataOf, type ApiResponse } from '../api/product-api.js';
import type { RunningService } from '../service/service.js';
import type { Order } from '../api/order-api.js';
import type { Random } from '../seeded-random.js';
import { CARD, orderModel, type KeyedAnswer, type OrderModel, type ShopCustomer } from './shop-crash-customers.js';

/** The ids the probes got after the restart: what was assigned before it is below, what is assigned after is above. */
export interface ProbeIds {
  readonly order: number;
  readonly payment: number;
}

export interface ReplayFindings {
  readonly violations: string[];
  /** Payments in flight that left their order "being paid" for good. */
  stuck: number;
  replays: number;
}

const replayed = (response: ApiResponse): boolean => response.headers.get('idempotent-replayed') === 'true';

const sendPayment = (service: RunningService, customer: ShopCustomer, orderId: number, key: string): Promise<ApiResponse> =>
  call(service, 'POST', `/users/me/orders/${orderId}/payments`, { json: CARD }, { ...customer.auth, 'idempotency-key': key });

const sendPlacement = (service: RunningService, customer: ShopCustomer, addressId: number, key: string): Promise<ApiResponse> =>
  call(service, 'POST', '/users/me/orders', { json: { addressId } }, { ...customer.auth, 'idempotency-key': key });

/** The id of a 201's `data`; undefined for any other answer. */
function createdId(response: ApiResponse): number | undefined {
  return response.status === 201 ? dataOf<{ id?: number } | undefined>(response)?.id : undefined;
}

function describe(response: ApiResponse): string {
  return `${response.status}${replayed(response) ? ' (replayed)' : ''} ${response.text.slice(0, 300)}`;
}

/** A repeat of an answered keyed write: the first answer again, marked as replayed. */
function checkReplay(findings: ReplayFindings, who: string, what: string, answer: KeyedAnswer, response: ApiResponse): void {
  findings.replays++;
  const sameAnswer = answer.text === '' ? createdId(response) === answer.id : response.text === answer.text;
  if (response.status !== 201 || !replayed(response) || !sameAnswer) {
    findings.violations.push(`${who}: ${what} repeated with key ${answer.key} answered ${describe(response)}; first answer: ${answer.text === '' ? `id ${answer.id}` : answer.text}`);
    return;
  }
  answer.text = response.text;
  answer.replays++;
}

async function resendPayment(service: RunningService, customer: ShopCustomer, order: OrderModel, key: string, applied: boolean, probes: ProbeIds, findings: ReplayFindings): Promise<void> {
  const who = customer.email;
  const response = await sendPayment(service, customer, order.id, key);
  if (applied) {
    // The payment was made before the crash: its id was assigned before the probe's.
    const id = createdId(response);
    if (id === undefined || !replayed(response) || id >= probes.payment) findings.violations.push(`${who}: the payment of order ${order.id} was applied, but sent again it answered ${describe(response)} (the probe's payment is ${probes.payment})`);
    else order.payment = { key, ref: order.id, id, text: response.text, replays: 1 };
    return;
  }
  if (response.status === 409) {
    // A charge begun before the crash and never finished, left so by the restart: recovery finishes such charges as
    // failed (test/faults/journal/journal-charge-left-out.test.ts), so the same payment sent again must run afresh. Counted for
    // bench/journal/crash-rounds.ts's column too; the order can be neither paid nor cancelled from now on.
    findings.violations.push(`${who}: the payment of order ${order.id} was not applied; sent again it answered ${describe(response)}: a charge the crash left out was not finished at recovery`);
    order.stuck = true;
    findings.stuck++;
    return;
  }
  const id = createdId(response);
  if (id === undefined || replayed(response) || id <= probes.payment) {
    findings.violations.push(`${who}: the payment of order ${order.id} was not applied; sent again it answered ${describe(response)} (the probe's payment is ${probes.payment})`);
    return;
  }
  order.payment = { key, ref: order.id, id, text: response.text, replays: 0 };
  order.status = 'paid';
  order.paymentStatus = 'paid';
}

async function resendPlacement(service: RunningService, customer: ShopCustomer, key: string, addressId: number, applied: boolean, probes: ProbeIds, findings: ReplayFindings): Promise<void> {
  const who = customer.email;
  const response = await sendPlacement(service, customer, addressId, key);
  if (applied) {
    const placed = customer.orders.at(-1)?.placed;
    if (placed?.key !== key) findings.violations.push(`${who}: the placement in flight at the crash (key ${key}) is not the newest order`);
    else checkReplay(findings, who, 'an order placement in flight at the crash', placed, response);
    return;
  }
  const order = response.status === 201 ? dataOf<Order>(response) : undefined;
  if (order === undefined || replayed(response) || order.id <= probes.order || JSON.stringify(orderModel(order, undefined).lines) !== JSON.stringify(customer.cart)) {
    findings.violations.push(`${who}: an order placement was not applied; sent again with its key it answered ${describe(response)}; the cart holds ${JSON.stringify(customer.cart)} (the probe's order is ${probes.order})`);
    return;
  }
  customer.orders.push(orderModel(order, { key, ref: addressId, id: order.id, text: response.text, replays: 0 }));
  customer.cart = [];
}

/**
 * The write in flight sent again, then every keyed answer not yet replayed
 * after a restart, and `sample` older ones (keys must outlive every restart,
 * not just the first).
 */
export async function resendAndReplay(service: RunningService, customer: ShopCustomer, probes: ProbeIds, random: Random, sample: number, findings: ReplayFindings): Promise<void> {
  const resend = customer.resend;
  customer.resend = undefined;
  if (resend?.write.kind === 'pay') {
    const { orderId, key } = resend.write;
    const order = customer.orders.find((each) => each.id === orderId);
    // Gone only when the service lost the order (its check said so already): nothing to pay again.
    if (order === undefined) findings.violations.push(`${customer.email}: order ${orderId}, whose payment was in flight at the crash, is gone`);
    else await resendPayment(service, customer, order, key, resend.applied, probes, findings);
  } else if (resend?.write.kind === 'order') {
    await resendPlacement(service, customer, resend.write.key, resend.write.addressId, resend.applied, probes, findings);
  }
  const answers: { what: string; answer: KeyedAnswer; send: () => Promise<ApiResponse> }[] = [];
  for (const order of customer.orders) {
    const { placed, payment } = order;
    if (placed !== undefined) answers.push({ what: `the placement of order ${order.id}`, answer: placed, send: () => sendPlacement(service, customer, placed.ref, placed.key) });
    if (payment !== undefined) answers.push({ what: `the payment of order ${order.id}`, answer: payment, send: () => sendPayment(service, customer, order.id, payment.key) });
  }
  const older = answers.filter((each) => each.answer.replays > 0);
  const chosen = [...answers.filter((each) => each.answer.replays === 0), ...Array.from({ length: Math.min(sample, older.length) }, () => random.pick(older))];
  for (const { what, answer, send } of chosen) checkReplay(findings, customer.email, what, answer, await send());
}
