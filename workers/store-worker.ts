/**
 * The store worker: piscina's entry point and the only owner of the data.
 * Piscina starts it on exactly one thread and runs one task on it, the
 * StoreConnect that hands over the port the batches then travel on. The
 * thread answers the batches one after the other, each command running to
 * completion before the next begins: that is what serialises mutations.
 */
import { workerData } from 'node:worker_threads';
import {
  PACKED_EMPTY,
  PACKED_OTHER,
  readStoreWorkerData,
  STORE_PROTOCOL_VERSION,
  type PackedResults,
  type PostedBatch,
  type StoreBatchAnswer,
  type StoreConnect,
  type StoreResult,
} from './store-protocol.js';
import { StoreDispatch } from './store-dispatch.js';

const store = new StoreDispatch(readStoreWorkerData(workerData));

/** The results, flat (see PackedResults). */
function pack(results: readonly StoreResult[]): PackedResults {
  const packed: PackedResults = [];
  for (const result of results) {
    if (result.kind === 'ok' && result.total === undefined && result.created === undefined) packed.push(result.body, result.etag);
    else if (result.kind === 'empty') packed.push(PACKED_EMPTY, undefined);
    else packed.push(PACKED_OTHER, result);
  }
  return packed;
}

function answer(posted: unknown): StoreBatchAnswer {
  try {
    const { protocol, commands } = (posted ?? {}) as Partial<PostedBatch>;
    return pack(store.runBatch({ protocol, commands: typeof commands === 'string' ? (JSON.parse(commands) as unknown) : commands }));
  } catch (error) {
    // Only a batch the worker cannot read throws here (each command's own failure is its result).
    return { unreadable: error instanceof Error ? error.message : String(error) };
  }
}

/** Piscina's one task: from now on, every message on `port` is a batch, answered on the same port in the order it came. */
export default function connectStore(connect: unknown): true {
  const { protocol, port } = (connect ?? {}) as Partial<StoreConnect>;
  if (protocol !== STORE_PROTOCOL_VERSION || port === undefined) {
    throw new Error(`store worker speaks protocol ${STORE_PROTOCOL_VERSION}, got a connection it cannot use`);
  }
  port.on('message', (batch: unknown) => {
    port.postMessage(answer(batch));
  });
  return true;
}
