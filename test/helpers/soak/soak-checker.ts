/**
 * The soak's verdict on its history and on what every instance holds at the
 * end (issue 29):
 *
 * - every answer is one a client may get: a 2xx, a 404 for a read, a 409
 *   for a cancel (its order was cancelled already), a 503 with Retry-After or
 *   a 421; never a 500, never a hang (no answer within the client's time-out);
 *   a refused or cut connection only from an instance killed or down;
 * - every acknowledged create is on every instance exactly once, under the
 *   id it was answered with; a create refused as not applied is nowhere;
 *   the instances hold one list;
 * - no id was given to two different products (by the creates' answers, and
 *   by what any read showed);
 * - one client's reads from one instance never go back in time: a product it
 *   saw there (or created through it) is there at every later read, and the
 *   count of the soak's products there never falls;
 * - the order event ids agree on every instance (the administrators'
 *   streams, watched all along: soak-watchers.ts): an id is the same change
 *   everywhere, every instance has every id up to the same last one, and
 *   every acknowledged order and cancellation is among them.
 *
 * With the figures for the docs: operations, faults, refusals by kind, the
 * longest time without an acknowledged write and without an answered read.
 */
import type { WatchedEvents } from './soak-watchers.js';
import { acknowledged, nothingApplied, refusalKind, type AnsweredData, type OpRecord, type SoakHistory } from './soak-history.js';

export interface FinalState {
  /** Per slot, the soak's products as the instance lists them. */
  readonly products: readonly (readonly { readonly id: number; readonly name: string }[])[];
  /** Per slot, the administrators' order events its watcher saw, by id. */
  readonly events: readonly WatchedEvents[];
}

export interface SoakFigures {
  readonly operations: number;
  readonly byKind: Record<string, number>;
  readonly acknowledged: number;
  readonly refusals: Record<string, number>;
  readonly unknownWrites: number;
  readonly faults: Record<string, number>;
  /** The longest time (ms) without an acknowledged write anywhere, and without an answered read; with the fault it fell in. */
  readonly longestWithoutWrite: Gap;
  readonly longestWithoutRead: Gap;
  readonly orderEvents: number;
}

const WRITES: ReadonlySet<string> = new Set(['create', 'cart', 'order', 'cancel']);
const describe = (op: OpRecord): string => `client ${op.client} via slot ${op.slot}, ${op.request} (${op.subject}) ${op.start}-${op.end} ms: ${JSON.stringify(op.answer).slice(0, 300)}`;

function answerProblems(ops: readonly OpRecord[]): string[] {
  const problems: string[] = [];
  for (const op of ops) {
    const answer = op.answer;
    if ('error' in answer) {
      if (answer.error === 'timeout') problems.push(`a hang: ${describe(op)}`);
      continue;
    }
    const { status } = answer;
    if (status < 300 || status === 421) continue;
    if (status === 503 && answer.retryAfter !== null) continue;
    if ((status === 404 && op.op === 'read') || (status === 409 && op.op === 'cancel')) continue;
    problems.push(`an answer no client may get: ${describe(op)}`);
  }
  return problems;
}

const dataOf = (op: OpRecord): AnsweredData => ('status' in op.answer ? (op.answer.data ?? {}) : {});

function createProblems(ops: readonly OpRecord[], final: FinalState): string[] {
  const problems: string[] = [];
  const answered = new Map<string, number>();
  const notApplied = new Set<string>();
  for (const op of ops) {
    if (op.op !== 'create') continue;
    if (acknowledged(op.answer)) answered.set(op.subject, Number(dataOf(op).id));
    else if (nothingApplied(op.answer)) notApplied.add(op.subject);
  }
  final.products.forEach((list, slot) => {
    const byName = new Map<string, number[]>();
    for (const { id, name } of list) byName.set(name, [...(byName.get(name) ?? []), id]);
    for (const [name, id] of answered) {
      const ids = byName.get(name) ?? [];
      if (ids.length !== 1 || ids[0] !== id) problems.push(`slot ${slot}: acknowledged ${name} (id ${id}) is there as ${JSON.stringify(ids)}`);
    }
    for (const name of notApplied) if (byName.has(name)) problems.push(`slot ${slot}: ${name} was refused as not applied, yet it is there`);
    for (const [name, ids] of byName) if (ids.length > 1) problems.push(`slot ${slot}: ${name} is there ${ids.length} times`);
  });
  const texts = final.products.map((list) => JSON.stringify(list));
  if (!texts.every((text) => text === texts[0])) problems.push(`the instances hold different lists: ${final.products.map((list) => list.length).join(', ')} products`);
  return problems;
}

function idProblems(ops: readonly OpRecord[]): string[] {
  const names = new Map<number, Set<string>>();
  const shown = (id: number, name: string): void => void names.set(id, new Set([...(names.get(id) ?? []), name]));
  for (const op of ops) {
    if (!acknowledged(op.answer) || (op.op !== 'create' && op.op !== 'read')) continue;
    const data = dataOf(op);
    if (typeof data.id === 'number' && typeof data.name === 'string') shown(data.id, data.name);
  }
  return [...names].filter(([, seen]) => seen.size > 1).map(([id, seen]) => `id ${id} was given to different products: ${[...seen].join(', ')}`);
}

function monotonicProblems(ops: readonly OpRecord[]): string[] {
  const problems: string[] = [];
  const sessions = new Map<string, { seen: Set<number>; total: number }>();
  for (const op of [...ops].sort((a, b) => a.start - b.start)) {
    const key = `${op.client}/${op.slot}`;
    const session = sessions.get(key) ?? { seen: new Set(), total: 0 };
    sessions.set(key, session);
    const answer = op.answer;
    if (!('status' in answer)) continue;
    const showed = (op.op === 'create' && answer.status === 201) || (op.op === 'read' && answer.status === 200);
    if (showed) session.seen.add(Number(dataOf(op).id));
    else if (op.op === 'read' && answer.status === 404 && session.seen.has(Number(op.subject))) problems.push(`a read went back in time (it saw the product there before): ${describe(op)}`);
    if (op.op === 'count' && answer.status === 200 && answer.total !== undefined) {
      if (answer.total < session.total) problems.push(`a count went back in time (${session.total} before): ${describe(op)}`);
      session.total = Math.max(session.total, answer.total);
    }
  }
  return problems;
}

function eventProblems(ops: readonly OpRecord[], final: FinalState): string[] {
  const problems: string[] = [];
  const union = new Map<number, { data: string; slot: number }>();
  final.events.forEach(({ byId, resets }, slot) => {
    for (const [id, data] of byId) {
      const known = union.get(id);
      if (known === undefined) union.set(id, { data, slot });
      else if (known.data !== data) problems.push(`order event ${id} is ${data} on slot ${slot}, ${known.data} on slot ${known.slot}`);
    }
    const ids = [...byId.keys()].sort((a, b) => a - b);
    const missing = ids.length === 0 ? 0 : (ids.at(-1) ?? 0) - ids.length;
    if (resets === 0 && missing !== 0) problems.push(`slot ${slot} has ${ids.length} order events up to ${ids.at(-1) ?? 0}: ids are missing`);
  });
  const lasts = final.events.map(({ byId }) => Math.max(0, ...byId.keys()));
  if (!lasts.every((last) => last === lasts[0])) problems.push(`the instances' last order events differ: ${lasts.join(', ')}`);
  const statusOf = new Map<number, Set<string>>();
  for (const { data } of union.values()) {
    const { orderId, status } = JSON.parse(data) as { orderId: number; status: string };
    statusOf.set(orderId, new Set([...(statusOf.get(orderId) ?? []), status]));
  }
  for (const op of ops) {
    if (!acknowledged(op.answer) || (op.op !== 'order' && op.op !== 'cancel')) continue;
    const orderId = Number(op.subject);
    const wanted = op.op === 'order' ? 'pending' : 'cancelled';
    if (!(statusOf.get(orderId)?.has(wanted) ?? false)) problems.push(`acknowledged ${op.op} of order ${orderId} has no ${wanted} event`);
  }
  return problems;
}

export interface Gap {
  readonly ms: number;
  readonly from: number;
  /** The fault under way when it began, if any. */
  readonly during: string | undefined;
}

/** The longest gap between two moments in `at` (sorted), the soak's own ends included. */
function longestGap(at: readonly number[], from: number, to: number, history: SoakHistory): Gap {
  let longest = { ms: 0, from };
  let last = from;
  for (const moment of [...at, to]) {
    if (moment - last > longest.ms) longest = { ms: moment - last, from: last };
    last = Math.max(last, moment);
  }
  // The last fault begun before the gap ended, if it was healed no more than a few seconds (a takeover, a catch-up) before the gap began.
  const fault = history.faults.filter((candidate) => candidate.start <= longest.from + longest.ms && candidate.end + 3000 >= longest.from).at(-1);
  return { ms: Math.round(longest.ms), from: Math.round(longest.from), during: fault === undefined ? undefined : `${fault.fault} ${fault.target}` };
}

export function figuresOf(history: SoakHistory, final: FinalState, faults: ReadonlyMap<string, number>): SoakFigures {
  const { ops } = history;
  const count = (keys: readonly string[]): Record<string, number> => keys.reduce<Record<string, number>>((counts, key) => ({ ...counts, [key]: (counts[key] ?? 0) + 1 }), {});
  const from = ops[0]?.start ?? 0;
  const to = ops.reduce((last, op) => Math.max(last, op.end), from);
  const ends = (kinds: (op: OpRecord) => boolean): number[] => ops.filter((op) => kinds(op) && acknowledged(op.answer)).map((op) => op.end).sort((a, b) => a - b);
  return {
    operations: ops.length,
    byKind: count(ops.map((op) => op.op)),
    acknowledged: ops.filter((op) => acknowledged(op.answer)).length,
    refusals: count(ops.flatMap((op) => refusalKind(op.answer) ?? [])),
    unknownWrites: ops.filter((op) => WRITES.has(op.op) && !acknowledged(op.answer) && refusalKind(op.answer) !== undefined && !nothingApplied(op.answer)).length,
    faults: Object.fromEntries(faults),
    longestWithoutWrite: longestGap(ends((op) => WRITES.has(op.op)), from, to, history),
    longestWithoutRead: longestGap(ends((op) => !WRITES.has(op.op)), from, to, history),
    orderEvents: final.events[0]?.byId.size ?? 0,
  };
}

/** Every violation of the soak's checks; none is a pass. */
export function soakViolations(history: SoakHistory, final: FinalState): string[] {
  return [...answerProblems(history.ops), ...createProblems(history.ops, final), ...idProblems(history.ops), ...monotonicProblems(history.ops), ...eventProblems(history.ops, final)];
}
