/**
 * A list body made as parts (json-text.ts, dataListBody) is, byte for byte,
 * the body made as one string; a short list stays one string.
 */
import test from 'ava';
import { Buffer } from 'node:buffer';
import { dataEnvelope, dataListBody } from '../../../workers/json-text.js';

const item = (index: number): string => JSON.stringify({ id: index, name: `Kettle ${index} é \u{1F600}`, description: 'ß'.repeat(index % 50) });

test('a long list is parts of at most a few dozen kilobytes, which together are the one-string body', (t) => {
  const items = Array.from({ length: 3000 }, (_, index) => item(index));
  const body = dataListBody(items);
  if (typeof body === 'string') return t.fail('expected parts');
  t.true(body.length > 4);
  for (const part of body) t.true(part.byteLength < 3 * 33 * 1024);
  t.is(Buffer.concat(body).toString('utf8'), dataEnvelope(`[${items.join(',')}]`));
});

test('a short list, and an empty one, are one string', (t) => {
  t.is(dataListBody([item(1), item(2)]), dataEnvelope(`[${item(1)},${item(2)}]`));
  t.is(dataListBody([]), '{"data":[]}');
});

test('an item longer than a part (64 KB) is written whole, and no part is empty', (t) => {
  const huge = JSON.stringify({ id: 7, description: `${'é'.repeat(40_000)}\u{1F600}` });
  const items = [item(1), huge, item(2), huge, ...Array.from({ length: 500 }, (_, index) => item(index))];
  const body = dataListBody(items);
  if (typeof body === 'string') return t.fail('expected parts');
  for (const part of body) t.true(part.byteLength > 0);
  t.is(Buffer.concat(body).toString('utf8'), dataEnvelope(`[${items.join(',')}]`));
});
