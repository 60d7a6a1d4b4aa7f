import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, ok, refused } from '../command-handlers.js';
import { failsPrecondition, isNotModified } from '../conditions.js';
import type { Conditions } from '../conditions-protocol.js';
import type { StoreBody, StoreResult } from '../store-protocol.js';
import { dataEnvelope, dataListBody, sharedUtf8 } from '../json-text.js';
import type { CatalogCommand, CatalogSearch, CatalogStoreError } from './catalog-protocol.js';
import { catalogProductJson, type ReviewSummaries } from './catalog-product.js';
import { productDetailsJson } from './product-details.js';
import type { CatalogStore } from './catalog-store.js';
import type { SearchQuery } from './product-search-index.js';

const NOT_FOUND = refused('PRODUCT_NOT_FOUND' satisfies CatalogStoreError);
const CHANGED = refused('PRECONDITION_FAILED' satisfies CatalogStoreError);
const LIST_START = sharedUtf8('{"data":[');
const LIST_END = sharedUtf8(']}');

function indexQuery(search: CatalogSearch): SearchQuery {
  const { page, ...filters } = search;
  return { offset: page === undefined ? 0 : (page.page - 1) * page.perPage, limit: page === undefined ? Number.POSITIVE_INFINITY : page.perPage, ...filters };
}

/**
 * The products' JSON texts, in the order of `ids` (every id names a product:
 * the index answered them). An array, not a generator: iterating a generator
 * here cost 2.2 µs more a search of 20 products, and under a million products
 * about 800 bytes of it a search survived into the old generation as garbage
 * (bench/RESULTS.md, "Object spreads").
 */
function productJsons(catalog: CatalogStore, ids: readonly number[]): string[] {
  return ids.map((id) => catalog.json(id) ?? '');
}

/**
 * A read under If-None-Match: 304 when the client holds the current version,
 * before the body is built; otherwise the body with its tag.
 */
function conditionalRead(conditions: Conditions | undefined, etag: string, body: () => StoreBody, total?: number): StoreResult {
  if (isNotModified(conditions, etag)) return { kind: 'not-modified', etag };
  return total === undefined ? { kind: 'ok', body: body(), etag } : { kind: 'ok', body: body(), etag, total };
}

/**
 * The marketplace's /products: six-field products, search by the index,
 * writes that keep it current, details with what the reviews domain
 * summarises (`reviews`), and the categories. Reads carry ETags and answer
 * 304 to a matching If-None-Match; PUT and DELETE under If-Match are refused
 * (412) when the product changed since, in the same step as the write.
 */
export function catalogCommands(catalog: CatalogStore, reviews: ReviewSummaries): CommandHandlers<CatalogCommand> {
  return {
    'catalog.list': ({ conditions }) => conditionalRead(conditions, catalog.listEtag, () => [LIST_START, ...catalog.listParts(), LIST_END]),
    'catalog.search': ({ search, conditions }) => {
      if (isNotModified(conditions, catalog.listEtag)) return { kind: 'not-modified', etag: catalog.listEtag };
      const { ids, total } = catalog.search(indexQuery(search));
      return conditionalRead(undefined, catalog.listEtag, () => dataListBody(productJsons(catalog, ids)), total);
    },
    'catalog.details': ({ id, conditions }) => {
      const product = catalog.get(id);
      const etag = catalog.etagOf(id);
      if (product === undefined || etag === undefined) return NOT_FOUND;
      return conditionalRead(conditions, etag, () => dataEnvelope(productDetailsJson(product, reviews)));
    },
    'catalog.categories': ({ conditions }) => conditionalRead(conditions, catalog.listEtag, () => dataEnvelope(JSON.stringify(catalog.categories()))),
    'catalog.create': ({ fields }) => ok(dataEnvelope(catalogProductJson(catalog.create(fields)))),
    'catalog.replace': ({ id, fields, conditions }) => {
      const etag = catalog.etagOf(id);
      if (etag === undefined) return NOT_FOUND;
      if (failsPrecondition(conditions, etag)) return CHANGED;
      const product = catalog.replace(id, fields);
      return product === undefined ? NOT_FOUND : { kind: 'ok', body: dataEnvelope(catalogProductJson(product)), etag: catalog.etagOf(id) ?? etag };
    },
    'catalog.delete': ({ id, conditions }) => {
      const etag = catalog.etagOf(id);
      if (etag === undefined) return NOT_FOUND;
      if (failsPrecondition(conditions, etag)) return CHANGED;
      catalog.delete(id);
      return EMPTY;
    },
    'catalog.probe': ({ id }) => (catalog.get(id) === undefined ? NOT_FOUND : EMPTY),
  };
}

