/**
 * What happened in a soak, as Jepsen keeps it: every operation a client
 * made (who, through which instance, what it asked, when it began and
 * ended, what came back) and every fault the nemesis injected (what, on
 * whom, from when to when). Times are milliseconds from the soak's start.
 * The checker (soak-checker.ts) reads nothing else but the final state; on
 * a failure the whole history is written to a file, one JSON line each.
 */
import { writeFileSync } from 'node:fs';

export type OpKind = 'create' | 'read' | 'count' | 'cart' | 'order' | 'cancel';

/** What the checks read of a 2xx answer's `data`: the id and name of a product, the id of an order. */
export interface AnsweredData {
  readonly id?: number;
  readonly name?: string;
}

/** An HTTP answer, or why none came (a refused or cut connection, a timeout). */
export type OpAnswer =
  | { readonly status: number; readonly retryAfter: string | null; readonly body: string; readonly total?: number; readonly data?: AnsweredData }
  | { readonly error: 'refused' | 'cut' | 'timeout'; readonly detail: string };

export interface OpRecord {
  readonly client: number;
  readonly slot: number;
  readonly op: OpKind;
  /** The method and path, and for a create the product's name, for an order the order's id. */
  readonly request: string;
  /** The product's name (create) or id (read), the order's id (cancel). */
  readonly subject: string;
  readonly start: number;
  readonly end: number;
  readonly answer: OpAnswer;
}

export type FaultKind = 'kill' | 'pause' | 'postgres';

export interface FaultRecord {
  readonly fault: FaultKind;
  /** `writer 1`, `follower 2`, `postgres`. */
  readonly target: string;
  readonly start: number;
  /** When the fault was healed: restarted, resumed, started again. */
  readonly end: number;
}

export class SoakHistory {
  readonly #started = performance.now();
  readonly ops: OpRecord[] = [];
  readonly faults: FaultRecord[] = [];

  /** Milliseconds since the soak began. */
  now(): number {
    return Math.round((performance.now() - this.#started) * 10) / 10;
  }

  /** Writes the history as JSON lines (the faults first) to `file`. */
  write(file: string): void {
    const lines = [...this.faults.map((fault) => JSON.stringify({ kind: 'fault', ...fault })), ...this.ops.map((op) => JSON.stringify({ kind: 'op', ...op }))];
    writeFileSync(file, `${lines.join('\n')}\n`);
  }
}

/** Whether the answer is a 2xx. */
export const acknowledged = (answer: OpAnswer): answer is Extract<OpAnswer, { status: number }> => 'status' in answer && answer.status >= 200 && answer.status < 300;

/** The words of a 503 that promise nothing was applied (WRITER_UNAVAILABLE, JOURNAL_UNAVAILABLE, STORE_BUSY). */
export const NOTHING_APPLIED = /nothing was applied|The store is busy/;
/** The words of WRITER_LOST: it may have been applied. */
export const MAYBE_APPLIED = /may have been applied/;

/** Whether the answer says the write was not applied: a 503 that says so, or a connection refused (nothing was delivered). */
export const nothingApplied = (answer: OpAnswer): boolean => ('error' in answer ? answer.error === 'refused' : answer.status === 503 && NOTHING_APPLIED.test(answer.body));

/** A refusal's kind, for the figures: the 503's code by its words, or what came instead of an answer. */
export function refusalKind(answer: OpAnswer): string | undefined {
  if ('error' in answer) return `no answer (${answer.error})`;
  if (answer.status === 421) return '421';
  if (answer.status !== 503) return undefined;
  if (answer.body.includes('No writer instance took the write')) return '503 WRITER_UNAVAILABLE';
  if (MAYBE_APPLIED.test(answer.body)) return '503 WRITER_LOST';
  if (answer.body.includes('The database that keeps the journal does not answer')) return '503 JOURNAL_UNAVAILABLE';
  if (answer.body.includes('The store is busy')) return '503 STORE_BUSY';
  return '503 (other)';
}
