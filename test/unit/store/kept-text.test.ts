/**
 * A text the store keeps costs its characters, not the rope JSON.stringify
 * returns (workers/json-text.ts, keptText): measured on the heap after full
 * garbage collections, on the collection that holds one text per product.
 * Without keptText a 95-character product costs about 300 bytes here, with
 * it about 200 (the rest is the product's record and its slots).
 */
import test from 'ava';
import v8 from 'node:v8';
import vm from 'node:vm';
import { keptText } from '../../../workers/json-text.js';
import { ProductStore } from '../../../workers/products/product-store.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const COUNT = 50_000;
const FIELDS = { name: 'Seeded Product', description: 'One of many added before the run', price: 19.99 };

/** Held until the file ends: the collector must not take what is being weighed. */
const weighed: unknown[] = [];

/** Heap bytes per item of what `make` makes (COUNT items), after full collections. */
function heapBytesPerItem(make: () => unknown): number {
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  weighed.push(make());
  gc();
  gc();
  return (process.memoryUsage().heapUsed - before) / COUNT;
}

test.serial('a kept JSON text costs its characters and a header, not a rope', (t) => {
  const texts = (flatten: boolean) => () => Array.from({ length: COUNT }, (_, index) => {
    const text = JSON.stringify({ id: index + 1_000_000, ...FIELDS });
    return flatten ? keptText(text) : text;
  });
  const rope = heapBytesPerItem(texts(false));
  const kept = heapBytesPerItem(texts(true));
  t.log(`per 95-character text: ${rope.toFixed(0)} bytes as JSON.stringify made it, ${kept.toFixed(0)} kept`);
  t.true(kept < 150, `${kept.toFixed(0)} bytes a kept text`);
  t.true(rope > kept + 50, 'the rope this guards against is still there to flatten (else this test proves nothing)');
});

test.serial('a product in the collection costs well under 250 bytes of heap', (t) => {
  const perProduct = heapBytesPerItem(() => {
    const store = new ProductStore('count-plus-one');
    for (let index = 0; index < COUNT; index++) store.create({ ...FIELDS });
    return store;
  });
  t.log(`${perProduct.toFixed(0)} bytes a product`);
  t.true(perProduct < 250, `${perProduct.toFixed(0)} bytes a product`);
});
