/**
 * RecentTexts (workers/products/recent-texts.ts): a text is made once and
 * then held; past the capacity the oldest made goes first; a forgotten one
 * is made again. The store's use of it (a write forgets the product's text)
 * is checked against the naive model in catalog-store.model.test.ts.
 */
import test from 'ava';
import { RecentTexts } from '../../../workers/products/recent-texts.js';

function counted(texts: RecentTexts): { read: (id: number) => string; made: number[] } {
  const made: number[] = [];
  const read = (id: number): string =>
    texts.textOf(id, () => {
      made.push(id);
      return `text ${id}`;
    });
  return { read, made };
}

test('a text is made on its first read only', (t) => {
  const { read, made } = counted(new RecentTexts(3));
  t.is(read(7), 'text 7');
  t.is(read(7), 'text 7');
  t.deepEqual(made, [7]);
});

test('past the capacity, the oldest made is dropped first, however often it was read', (t) => {
  const { read, made } = counted(new RecentTexts(2));
  read(1);
  read(2);
  read(1);
  read(3);
  t.deepEqual(made, [1, 2, 3]);
  read(2);
  read(3);
  t.deepEqual(made, [1, 2, 3], '2 and 3 are held');
  read(1);
  t.deepEqual(made, [1, 2, 3, 1], '1 was dropped');
});

test('a forgotten text is made again, and forgetting one not held changes nothing', (t) => {
  const texts = new RecentTexts(2);
  const { read, made } = counted(texts);
  read(1);
  read(2);
  texts.forget(1);
  texts.forget(9);
  read(1);
  read(2);
  t.deepEqual(made, [1, 2, 1]);
});
