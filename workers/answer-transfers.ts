import { PACKED_OTHER, type PackedResults, type StoreBatchAnswer, type StoreBody, type StoreResult } from './store-protocol.js';

/**
 * The buffers a batch's answer moves to the front instead of copying: the
 * parts of its long bodies made for this answer alone (answer-parts.ts).
 * Bytes on a SharedArrayBuffer are the store's to keep (cached list pages)
 * and are shared, not moved. A buffer moved is the front's: its collector
 * frees it once the answer is written.
 */
export function answerTransfers(answer: StoreBatchAnswer): ArrayBuffer[] {
  const packed: PackedResults | undefined = Array.isArray(answer) ? answer : 'packed' in answer ? answer.packed : undefined;
  const moved: ArrayBuffer[] = [];
  if (packed === undefined) return moved;
  for (let slot = 0; slot < packed.length; slot += 2) {
    const first = packed[slot];
    if (Array.isArray(first)) addOwned(first as StoreBody, moved);
    else if (first === PACKED_OTHER) {
      // PackedResults: the slot after PACKED_OTHER is the result itself.
      const result = packed[slot + 1] as StoreResult;
      if (result.kind === 'ok') addOwned(result.body, moved);
    }
  }
  return moved;
}

function addOwned(body: StoreBody, moved: ArrayBuffer[]): void {
  if (typeof body === 'string') return;
  for (const part of body) if (part.buffer instanceof ArrayBuffer) moved.push(part.buffer);
}
