import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, ok, refused } from '../command-handlers.js';
import { dataEnvelope, sharedUtf8 } from '../json-text.js';
import type { CatalogCommand, CatalogSearch, CatalogStoreError } from './catalog-protocol.js';
import { catalogProductJson, type ReviewSummaries } from './catalog-product.js';
import { productDetailsJson } from './product-details.js';
import type { CatalogStore } from './catalog-store.js';
import type { SearchQuery } from './product-search-index.js';

const NOT_FOUND = refused('PRODUCT_NOT_FOUND' satisfies CatalogStoreError);
const LIST_START = sharedUtf8('{"data":[');
const LIST_END = sharedUtf8(']}');

function indexQuery(search: CatalogSearch): SearchQuery {
  const { page, ...filters } = search;
  return { ...filters, offset: page === undefined ? 0 : (page.page - 1) * page.perPage, limit: page === undefined ? Number.POSITIVE_INFINITY : page.perPage };
}

/**
 * The marketplace's /products: six-field products, search by the index,
 * writes that keep it current, details with what the reviews domain
 * summarises (`reviews`), and the categories.
 */
export function catalogCommands(catalog: CatalogStore, reviews: ReviewSummaries): CommandHandlers<CatalogCommand> {
  return {
    'catalog.list': () => ok([LIST_START, ...catalog.listParts(), LIST_END]),
    'catalog.search': ({ search }) => {
      const { ids, total } = catalog.search(indexQuery(search));
      return { kind: 'ok', body: dataEnvelope(`[${ids.map((id) => catalog.json(id)).join(',')}]`), total };
    },
    'catalog.details': ({ id }) => {
      const product = catalog.get(id);
      return product === undefined ? NOT_FOUND : ok(dataEnvelope(productDetailsJson(product, reviews)));
    },
    'catalog.categories': () => ok(dataEnvelope(JSON.stringify(catalog.categories()))),
    'catalog.create': ({ fields }) => ok(dataEnvelope(catalogProductJson(catalog.create(fields)))),
    'catalog.replace': ({ id, fields }) => {
      const product = catalog.replace(id, fields);
      return product === undefined ? NOT_FOUND : ok(dataEnvelope(catalogProductJson(product)));
    },
    'catalog.delete': ({ id }) => (catalog.delete(id) ? EMPTY : NOT_FOUND),
    'catalog.probe': ({ id }) => (catalog.get(id) === undefined ? NOT_FOUND : EMPTY),
  };
}

