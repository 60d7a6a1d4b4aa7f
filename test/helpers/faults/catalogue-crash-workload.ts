/**
 * The catalogue's crash workload (STRICT=1, so ids are never reused): each
 * writer creates, replaces and deletes its own /products and creates and
 * deletes its own /produkte items, one write at a time, until it is stopped
 * or a write goes unanswered. After a restart every entity must be as its
 * acknowledged writes left it, or as its one write in flight would leave it;
 * the seeded ten of both collections are untouched; and a new product's id
 * is the highest ever assigned plus one, a new /produkte item's the highest
 * there plus one.
 */
import type { RunningService } from '../service/service.js';
import { call, dataOf, type ApiResponse } from '../api/product-api.js';
import type { Random } from '../seeded-random.js';
import { EntityBook, type SeenItem, type TrackedEntity } from './crash-entities.js';
import type { CrashWorkload, LoadControl, Verdict, WriteCounter } from './crash-rounds.js';

interface ProductFields {
  readonly name: string;
  readonly description: string;
  readonly price: number;
}

interface ProduktFields {
  readonly name: string;
  readonly price: number;
}

type Listed = { readonly id: number } & Readonly<Record<string, unknown>>;

const CRASH_PREFIX = 'crash-';

const productFields = (item: Listed): ProductFields => ({ name: String(item.name), description: String(item.description), price: Number(item.price) });
const produktFields = (item: Listed): ProduktFields => ({ name: String(item.name), price: Number(item.price) });

async function listOf(service: RunningService, path: string): Promise<Listed[]> {
  const response = await call(service, 'GET', path);
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.text}`);
  return dataOf<Listed[]>(response);
}

function ascending(label: string, items: readonly Listed[]): string[] {
  const ids = items.map((item) => item.id);
  return ids.every((id, index) => index === 0 || id > (ids[index - 1] as number)) ? [] : [`${label} ids are not ascending: ${ids.join(',')}`];
}

export function catalogueCrashWorkload(random: Random, writerCount = 100): CrashWorkload {
  const products = new EntityBook<ProductFields>('product');
  const produkte = new EntityBook<ProduktFields>('produkte item');
  /** Each writer's entities, across rounds. */
  const owned = Array.from({ length: writerCount }, () => ({ products: [] as TrackedEntity<ProductFields>[], produkte: [] as TrackedEntity<ProduktFields>[] }));
  let seed = { products: '', produkte: '' };
  let serial = 0;
  /** Answers during the load that no write should get; reported by the next verify. */
  let loadProblems: string[] = [];

  const price = (): number => random.int(1, 9_999_99) / 100;
  const unexpected = (what: string, response: ApiResponse): void => void loadProblems.push(`${what} answered ${response.status}: ${response.text.slice(0, 200)}`);

  async function writer(service: RunningService, control: LoadControl, writes: WriteCounter, mine: (typeof owned)[number]): Promise<void> {
    const liveProducts = (): TrackedEntity<ProductFields>[] => mine.products.filter((entity) => entity.confirmed !== undefined);
    const liveProdukte = (): TrackedEntity<ProduktFields>[] => mine.produkte.filter((entity) => entity.confirmed !== undefined);
    while (!control.stopped) {
      const kind = random.weighted<'post' | 'put' | 'delete' | 'post-k' | 'delete-k'>([
        [35, 'post'],
        [20, 'put'],
        [15, 'delete'],
        [20, 'post-k'],
        [10, 'delete-k'],
      ]);
      let response: ApiResponse | undefined;
      if (kind === 'put' || kind === 'delete') {
        const entity = liveProducts().at(-1 - random.int(0, 2));
        if (entity === undefined) continue;
        const fields = kind === 'put' ? { name: entity.name, description: `revised ${++serial}`, price: price() } : undefined;
        products.changing(entity, fields);
        response = await writes.send(service, kind === 'put' ? 'PUT' : 'DELETE', `/products/${entity.id}`, fields === undefined ? undefined : { json: fields });
        if (response === undefined) return;
        const expected = kind === 'put' ? 200 : 204;
        if (response.status !== expected) unexpected(`${kind.toUpperCase()} /products/${entity.id}`, response);
        else if (fields !== undefined && JSON.stringify(dataOf(response)) !== JSON.stringify({ id: entity.id, ...fields })) loadProblems.push(`PUT /products/${entity.id} answered ${response.text}`);
        products.settle(entity, response.status === expected);
      } else if (kind === 'post') {
        const fields = { name: `${CRASH_PREFIX}p${++serial}`, description: 'first', price: price() };
        const entity = products.creating(fields.name, fields);
        mine.products.push(entity);
        response = await writes.send(service, 'POST', '/products', { json: fields });
        if (response === undefined) return;
        const created = response.status === 201 ? dataOf<Listed>(response) : undefined;
        if (created === undefined) unexpected('POST /products', response);
        else if (JSON.stringify(productFields(created)) !== JSON.stringify(fields)) loadProblems.push(`POST /products answered ${response.text}`);
        products.settle(entity, created !== undefined, created?.id);
      } else if (kind === 'post-k') {
        const fields = { name: `${CRASH_PREFIX}k${++serial}`, price: price() };
        const entity = produkte.creating(fields.name, fields);
        mine.produkte.push(entity);
        response = await writes.send(service, 'POST', '/produkte', { json: fields });
        if (response === undefined) return;
        const id = response.status === 201 ? dataOf<{ id: number }>(response).id : undefined;
        if (id === undefined) unexpected('POST /produkte', response);
        produkte.settle(entity, id !== undefined, id);
      } else {
        const entity = liveProdukte().at(-1 - random.int(0, 2));
        if (entity === undefined) continue;
        produkte.changing(entity, undefined);
        response = await writes.send(service, 'DELETE', `/produkte/${entity.id}`);
        if (response === undefined) return;
        if (response.status !== 200) unexpected(`DELETE /produkte/${entity.id}`, response);
        produkte.settle(entity, response.status === 200);
      }
    }
  }

  /** A create after the restart: its id must follow the highest, and it is one more entity from now on. */
  async function probe(service: RunningService): Promise<string[]> {
    const violations: string[] = [];
    const productFieldsNew = { name: `${CRASH_PREFIX}probe${++serial}`, description: 'after a restart', price: price() };
    const product = products.creating(productFieldsNew.name, productFieldsNew);
    const highestProduct = Math.max(10, products.highestId);
    const created = await call(service, 'POST', '/products', { json: productFieldsNew });
    const productId = dataOf<Listed>(created).id;
    if (created.status !== 201 || productId !== highestProduct + 1) violations.push(`a product created after the restart got id ${productId} (${created.status}); the highest id ever assigned was ${highestProduct}`);
    products.settle(product, created.status === 201, productId);

    const produktFieldsNew = { name: `${CRASH_PREFIX}probe${++serial}`, price: price() };
    const produkt = produkte.creating(produktFieldsNew.name, produktFieldsNew);
    const highestLive = Math.max(...(await listOf(service, '/produkte')).map((item) => item.id));
    const posted = await call(service, 'POST', '/produkte', { json: produktFieldsNew });
    const produktId = dataOf<{ id: number }>(posted).id;
    if (posted.status !== 201 || produktId !== highestLive + 1) violations.push(`a /produkte item created after the restart got id ${produktId} (${posted.status}); the highest there was ${highestLive}`);
    produkte.settle(produkt, posted.status === 201, produktId);
    return violations;
  }

  function reconcile<F>(label: string, items: readonly Listed[], seedText: string, book: EntityBook<F>, fieldsOf: (item: Listed) => F) {
    const seeded = items.filter((item) => !String(item.name).startsWith(CRASH_PREFIX));
    const violations = [...ascending(label, items)];
    if (JSON.stringify(seeded) !== seedText) violations.push(`${label}: the seeded items changed: ${JSON.stringify(seeded)}`);
    const seen: SeenItem<F>[] = items.filter((item) => String(item.name).startsWith(CRASH_PREFIX)).map((item) => ({ id: item.id, name: String(item.name), fields: fieldsOf(item) }));
    const reconciled = book.reconcile(seen);
    return { violations: [...violations, ...reconciled.violations], inFlight: reconciled.inFlight };
  }

  return {
    name: 'catalogue',
    writers: writerCount,
    env: { STRICT: '1' },
    async setup(service) {
      seed = { products: JSON.stringify(await listOf(service, '/products')), produkte: JSON.stringify(await listOf(service, '/produkte')) };
    },
    async load(service, control, writes) {
      await Promise.all(owned.map((mine) => writer(service, control, writes, mine)));
    },
    async verify(service): Promise<Verdict> {
      const productCheck = reconcile('/products', await listOf(service, '/products'), seed.products, products, productFields);
      const produktCheck = reconcile('/produkte', await listOf(service, '/produkte'), seed.produkte, produkte, produktFields);
      const violations = [...loadProblems, ...productCheck.violations, ...produktCheck.violations, ...(await probe(service))];
      loadProblems = [];
      const inFlight = { applied: productCheck.inFlight.applied + produktCheck.inFlight.applied, notApplied: productCheck.inFlight.notApplied + produktCheck.inFlight.notApplied };
      return { violations, notes: { 'in flight, applied': inFlight.applied, 'in flight, not applied': inFlight.notApplied } };
    },
    secrets: () => [],
  };
}
