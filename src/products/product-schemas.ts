import type { JsonSchema, QueryParameterDoc } from '../http/route-doc.js';
import { listOf, nullable, record } from '../http/route-doc.js';
import { PAGE_QUERY } from '../http/page-parameters.js';
import { MAX_CATEGORY_LENGTH, MAX_PRICE, MAX_STOCK } from './catalog-input.js';

/**
 * What /products reads and answers, as JSON Schema 2020-12 for the API
 * reference (src/openapi/). A `title` names a schema the reference shows once
 * under components. Request schemas say what the validators accept; the
 * validators stay the judges (and name the field in their 400).
 */

const ID: JsonSchema = { type: 'integer', minimum: 1 };

/** A product of the seed's collection (sections 2 to 6). */
export const PRODUCT: JsonSchema = record(
  { id: ID, name: { type: 'string' }, description: { type: 'string' }, price: { type: 'number' } },
  { title: 'Product', examples: [{ id: 1, name: 'Espresso Cup Set', description: 'Four porcelain cups, 80 ml each', price: 24.5 }] },
);

/** POST and PUT /products: name and description non-empty, price a number other than 0; other keys are ignored. */
export const PRODUCT_BODY: JsonSchema = {
  title: 'ProductFields',
  type: 'object',
  properties: { name: { type: 'string', minLength: 1 }, description: { type: 'string', minLength: 1 }, price: { type: 'number', not: { const: 0 } } },
  required: ['name', 'description', 'price'],
  examples: [{ name: 'Espresso Cup Set', description: 'Four porcelain cups, 80 ml each', price: 24.5 }],
};

/** The seed's validator codes, POST and PUT alike. */
export const PRODUCT_FIELD_ERRORS = ['PRODUCT_FIELDS_REQUIRED', 'PRODUCT_NAME_NOT_STRING', 'PRODUCT_DESCRIPTION_NOT_STRING', 'PRODUCT_PRICE_NOT_NUMBER'] as const;

const SLUG: JsonSchema = { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: MAX_CATEGORY_LENGTH };
const PRICE: JsonSchema = { type: 'number', exclusiveMinimum: 0, maximum: MAX_PRICE, description: 'At most two decimal places' };
const STOCK: JsonSchema = { type: 'integer', minimum: 0, maximum: MAX_STOCK };

/** A marketplace product (section 7): the seed's four fields, category and stock. */
export const CATALOG_PRODUCT: JsonSchema = record(
  { id: ID, name: { type: 'string' }, description: { type: 'string' }, price: { type: 'number' }, category: nullable(SLUG), stock: nullable(STOCK) },
  { title: 'Product', examples: [{ id: 1, name: 'Espresso Cup Set', description: 'Four porcelain cups, 80 ml each', price: 24.5, category: 'kitchen', stock: 40 }] },
);

/** POST and PUT /products in the marketplace; category and stock default to null. */
export const CATALOG_PRODUCT_BODY: JsonSchema = {
  title: 'ProductFields',
  type: 'object',
  properties: { name: { type: 'string', minLength: 1 }, description: { type: 'string', minLength: 1 }, price: PRICE, category: nullable(SLUG), stock: nullable(STOCK) },
  required: ['name', 'description', 'price'],
  examples: [{ name: 'Espresso Cup Set', description: 'Four porcelain cups, 80 ml each', price: 24.5, category: 'kitchen', stock: 40 }],
};

/** GET /products/:id in the marketplace: the product, its rating and its ten newest reviews (the reviews' schema). */
export const PRODUCT_DETAILS: JsonSchema = record(
  {
    id: ID,
    name: { type: 'string' },
    description: { type: 'string' },
    price: { type: 'number' },
    category: nullable(SLUG),
    stock: nullable(STOCK),
    rating: record({ average: nullable({ type: 'number' }), count: { type: 'integer', minimum: 0 } }),
    reviews: { type: 'array', items: { $ref: '#/components/schemas/Review' }, maxItems: 10 },
  },
  { title: 'ProductDetails' },
);

export const CATEGORIES: JsonSchema = listOf(record({ slug: SLUG, count: { type: 'integer', minimum: 1 } }, { title: 'Category', examples: [{ slug: 'kitchen', count: 3 }] }));

export const PRODUCT_LIST: JsonSchema = listOf(PRODUCT);
export const CATALOG_PRODUCT_LIST: JsonSchema = listOf(CATALOG_PRODUCT);

/** GET /products in the marketplace: any of these makes the request a search. */
export const SEARCH_QUERY: Readonly<Record<string, QueryParameterDoc>> = {
  category: { description: 'One category slug, or several separated by commas (any of them)', schema: { type: 'string', examples: ['kitchen,garden'] } },
  q: { description: 'Case-insensitive substring of name or description', schema: { type: 'string', minLength: 1, maxLength: 100 } },
  min_price: { description: 'Inclusive lower bound of the price', schema: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$', examples: ['10'] } },
  max_price: { description: 'Inclusive upper bound of the price', schema: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$', examples: ['19.99'] } },
  in_stock: { description: '`true`: stock null or above 0; `false`: stock 0', schema: { type: 'string', enum: ['true', 'false'] } },
  sort: { description: 'Order of the matches; ties keep collection order', schema: { type: 'string', enum: ['price_asc', 'price_desc', 'name_asc', 'name_desc', 'newest', 'rating_desc'] } },
  ...PAGE_QUERY,
};
