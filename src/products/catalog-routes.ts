import type { CatalogCommand } from '../../workers/products/catalog-protocol.js';
import { routesOf } from '../auth/identity.js';
import { validateCatalogProduct } from './catalog-input.js';
import { readProductQuery } from './search-parameters.js';
import { dataAnswer, EMPTY_ANSWER } from '../http/route-doc.js';
import { CATALOG_PRODUCT, CATALOG_PRODUCT_BODY, CATALOG_PRODUCT_LIST, CATEGORIES, PRODUCT_DETAILS, PRODUCT_FIELD_ERRORS, SEARCH_QUERY } from './product-schemas.js';

const route = routesOf<CatalogCommand>();
const productBody = { validate: validateCatalogProduct, quoteParseError: true } as const;
const productId = { id: 'PRODUCT_NOT_FOUND' } as const;
const fieldErrors = [...PRODUCT_FIELD_ERRORS, 'PRODUCT_FIELD_INVALID'];

/**
 * /products in the marketplace (contract section 7): six-field products,
 * search with X-Total-Count and Link, details with rating and reviews, the
 * categories in use, writes for administrators by default
 * (protection-rules.ts). Ids are never reused.
 */
export const catalogRoutes = [
  route({
    method: 'GET',
    path: '/products',
    summary: 'List products; with category, q, min_price, max_price, in_stock, sort, page or per_page, search them',
    query: { validate: readProductQuery },
    action: {
      store: ({ query: { search }, conditions }) => (search === undefined ? { kind: 'catalog.list', conditions } : { kind: 'catalog.search', search, conditions }),
      status: 200,
      listing: ({ query: { search } }) => (search === undefined ? undefined : search.page === undefined ? { kind: 'counted' } : { kind: 'paged', ...search.page }),
    },
    doc: { answers: { 200: dataAnswer(CATALOG_PRODUCT_LIST) }, query: SEARCH_QUERY, errors: ['SEARCH_PARAMETER_INVALID'] },
  }),
  route({
    method: 'GET',
    path: '/products/:id',
    summary: 'Read a product with its rating (average and count) and its ten newest reviews',
    ids: productId,
    action: { store: ({ ids, conditions }) => ({ kind: 'catalog.details', id: ids.id, conditions }), status: 200 },
    doc: { answers: { 200: dataAnswer(PRODUCT_DETAILS) } },
  }),
  route({
    method: 'GET',
    path: '/categories',
    summary: 'Every category in use and its number of products, by slug in code-point order',
    action: { store: ({ conditions }) => ({ kind: 'catalog.categories', conditions }), status: 200 },
    doc: { answers: { 200: dataAnswer(CATEGORIES) } },
  }),
  route({
    method: 'POST',
    path: '/products',
    summary: 'Create a product (administrators); its id is the highest ever assigned plus one',
    body: productBody,
    action: { store: ({ body }) => ({ kind: 'catalog.create', fields: body }), status: 201 },
    doc: { answers: { 201: dataAnswer(CATALOG_PRODUCT) }, body: CATALOG_PRODUCT_BODY, errors: fieldErrors },
  }),
  route({
    method: 'PUT',
    path: '/products/:id',
    summary: 'Replace all five fields of a product (administrators)',
    body: productBody,
    ids: productId,
    probe: ({ ids }) => ({ kind: 'catalog.probe', id: ids.id }),
    action: { store: ({ ids, body, conditions }) => ({ kind: 'catalog.replace', id: ids.id, fields: body, conditions }), status: 200 },
    doc: { answers: { 200: dataAnswer(CATALOG_PRODUCT) }, body: CATALOG_PRODUCT_BODY, errors: fieldErrors, conditional: true },
  }),
  route({
    method: 'DELETE',
    path: '/products/:id',
    summary: 'Delete a product, its reviews, and its place in every wish list and cart (administrators)',
    ids: productId,
    action: { store: ({ ids, conditions }) => ({ kind: 'catalog.delete', id: ids.id, conditions }), status: 204 },
    doc: { answers: { 204: EMPTY_ANSWER }, conditional: true },
  }),
];
