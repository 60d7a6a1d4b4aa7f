/**
 * A long body's parts leave the store worker with the answer (workers/
 * answer-transfers.ts): posted on a real MessageChannel with the list it
 * gives, the parts made for the answer are moved (empty on the sending side,
 * whole on the other), the cached shared bytes stay the store's, and every
 * packed form of an answer is covered. Left in the worker, such parts
 * waited for a collection nothing prompted: 2.1 GB after 10 s of the
 * bench's scenario j.
 */
import test from 'ava';
import { Buffer } from 'node:buffer';
import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { answerTransfers } from '../../../workers/answer-transfers.js';
import { dataEnvelope, dataListBody, sharedUtf8 } from '../../../workers/json-text.js';
import { PACKED_EMPTY, PACKED_OTHER, type PackedResults, type StoreBatchAnswer, type StoreBody } from '../../../workers/store-protocol.js';

const items = Array.from({ length: 2000 }, (_, index) => JSON.stringify({ id: index, name: `Zephyr kettle ${index}`, price: index }));
const expected = dataEnvelope(`[${items.join(',')}]`);

function longBody(): Uint8Array[] {
  const body = dataListBody(items);
  if (typeof body === 'string') throw new Error('expected a body in parts');
  return body;
}

async function posted(answer: StoreBatchAnswer): Promise<PackedResults> {
  const { port1, port2 } = new MessageChannel();
  try {
    port1.postMessage(answer, answerTransfers(answer));
    const [received] = (await once(port2, 'message')) as [StoreBatchAnswer];
    return Array.isArray(received) ? received : (received as { packed: PackedResults }).packed;
  } finally {
    port1.close();
  }
}

const text = (body: StoreBody): string => (typeof body === 'string' ? body : Buffer.concat(body).toString('utf8'));

test('the parts of a body with only an ETag, and of one with a total, are moved to the other side whole', async (t) => {
  const plain = longBody();
  const counted = longBody();
  const packed: PackedResults = [plain, '"e1"', PACKED_EMPTY, undefined, PACKED_OTHER, { kind: 'ok', body: counted, total: 2000 }, '{"data":{}}', undefined];
  t.is(answerTransfers(packed).length, plain.length + counted.length);

  const received = await posted(packed);
  for (const part of [...plain, ...counted]) t.is(part.byteLength, 0, 'moved: nothing left on the sending side');
  t.is(text(received[0] as StoreBody), expected);
  t.is(received[1], '"e1"');
  t.is(received[3], undefined);
  const other = received[5] as { kind: 'ok'; body: StoreBody; total: number };
  t.is(text(other.body), expected);
  t.is(other.total, 2000);
  t.is(received[6], '{"data":{}}');
});

test("cached bytes on a SharedArrayBuffer are shared, not moved: they stay the store's", async (t) => {
  const page = sharedUtf8('{"data":[{"id":1}]}');
  const packed: PackedResults = [[page], undefined];
  t.deepEqual(answerTransfers(packed), []);
  const received = await posted(packed);
  t.is(page.byteLength, 19);
  t.is(text(received[0] as StoreBody), '{"data":[{"id":1}]}');
});

test('an answer that carries order changes or a journal position moves its parts too; one that carries no results moves nothing', async (t) => {
  const body = longBody();
  const answer: StoreBatchAnswer = { packed: [body, undefined], journaled: [1], durableAt: 1 };
  t.is(answerTransfers(answer).length, body.length);
  const received = await posted(answer);
  t.is(text(received[0] as StoreBody), expected);
  t.deepEqual(answerTransfers({ unreadable: 'no' }), []);
  t.deepEqual(answerTransfers({ notWriter: 'follows' }), []);
});
