/**
 * What a product costs the store's memory, measured on the heap (and array
 * buffers) after full garbage collections. A text the store keeps costs its
 * characters, not the rope JSON.stringify returns (workers/json-text.ts,
 * keptText): without it a catalogue product costs about 300 bytes, with it
 * about 210. A marketplace product is columns (catalog-store.ts): about 275
 * bytes here with its search index, 380 when it was also a record.
 */
import test from 'ava';
import v8 from 'node:v8';
import vm from 'node:vm';
import { keptText } from '../../../workers/json-text.js';
import { ProductStore } from '../../../workers/products/product-store.js';
import { CatalogStore } from '../../../workers/products/catalog-store.js';
import { StoreEvents } from '../../../workers/store-events.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const COUNT = 50_000;
const FIELDS = { name: 'Seeded Product', description: 'One of many added before the run', price: 19.99 };

/** Held until the file ends: the collector must not take what is being weighed. */
const weighed: unknown[] = [];

function heapAndBuffers(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Heap bytes per item of what `make` makes (COUNT items), after full collections. */
function heapBytesPerItem(make: () => unknown): number {
  gc();
  gc();
  const before = heapAndBuffers();
  weighed.push(make());
  gc();
  gc();
  return (heapAndBuffers() - before) / COUNT;
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

test.serial('a marketplace product, with its search index, costs well under 330 bytes', (t) => {
  const CATEGORIES = Array.from({ length: 20 }, (_, index) => `cat-${index}`);
  const perProduct = heapBytesPerItem(() => {
    const store = new CatalogStore(new StoreEvents());
    for (let index = 0; index < COUNT; index++) {
      // Flat strings, as a structured clone from the front delivers them.
      const fields = { name: `Sturdy Bamboo Shelf ${index}`, description: `Bench product number ${index} of the shelf range`, price: 1 + (index % 500), category: CATEGORIES[index % 20] ?? null, stock: index % 10 === 0 ? null : index % 300 };
      store.create(JSON.parse(JSON.stringify(fields)) as typeof fields);
    }
    return store;
  });
  t.log(`${perProduct.toFixed(0)} bytes a product`);
  t.true(perProduct < 330, `${perProduct.toFixed(0)} bytes a product`);
});
