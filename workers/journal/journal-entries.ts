/**
 * What a frame's payload says: the batches of one flush, in order, each as
 * `[atMs, firstSeq, [command, ...]]` in JSON. Every journaled command has a
 * sequence number, one more than the command before it, from 1; a batch's
 * commands are numbered from its firstSeq. `atMs` is the time the store's
 * clock read while the batch ran, set again when it is replayed.
 */
import type { StoreCommand } from '../store-protocol.js';

export interface JournalBatch {
  readonly atMs: number;
  readonly firstSeq: number;
  readonly commands: readonly StoreCommand[];
}

/** One batch's entry, from its commands already in JSON, as one list (the store writes them once, or takes the text they came in). */
export function batchEntry(atMs: number, firstSeq: number, commandsText: string): string {
  return `[${atMs},${firstSeq},${commandsText}]`;
}

export function flushPayload(entries: readonly string[]): string {
  return `[${entries.join(',')}]`;
}

/** The batches of a payload whose checksum held; a shape that is not ours is damage, said as such. */
export function parsePayload(payload: string): JournalBatch[] {
  const parsed = JSON.parse(payload) as unknown;
  if (!Array.isArray(parsed)) throw new Error('a journal frame that is not a list of batches');
  return parsed.map((entry: unknown) => {
    if (!Array.isArray(entry) || entry.length !== 3) throw new Error('a journal batch that is not [time, sequence, commands]');
    const [atMs, firstSeq, commands] = entry as unknown[];
    if (typeof atMs !== 'number' || !Number.isSafeInteger(firstSeq) || !Array.isArray(commands)) throw new Error('a journal batch with a bad time, sequence or command list');
    return { atMs, firstSeq: firstSeq as number, commands: commands as StoreCommand[] };
  });
}
