import type { ProductCommand } from '../../workers/products/product-protocol.js';
import { routesOf } from '../auth/identity.js';
import { validateProductFields } from './product-input.js';
import { dataAnswer, EMPTY_ANSWER } from '../http/route-doc.js';
import { PRODUCT, PRODUCT_BODY, PRODUCT_FIELD_ERRORS, PRODUCT_LIST } from './product-schemas.js';

const route = routesOf<ProductCommand>();
const productBody = { validate: validateProductFields, quoteParseError: true } as const;
const productId = { id: 'PRODUCT_NOT_FOUND' } as const;

/** /products: the seed's collection, quirks included (docs/api.md, "Quirks and strict mode"). */
export const productRoutes = [
  route({
    method: 'GET',
    path: '/products',
    summary: 'List every product in collection order',
    action: { store: ({ conditions }) => ({ kind: 'product.list', conditions }), status: 200 },
    doc: { answers: { 200: dataAnswer(PRODUCT_LIST) } },
  }),
  route({
    method: 'POST',
    path: '/products',
    summary: 'Create a product; its id is the count of products plus one (strict mode: highest ever plus one)',
    body: productBody,
    action: { store: ({ body }) => ({ kind: 'product.create', fields: body }), status: 201 },
    doc: { answers: { 201: dataAnswer(PRODUCT) }, body: PRODUCT_BODY, errors: PRODUCT_FIELD_ERRORS },
  }),
  route({
    method: 'GET',
    path: '/products/:id',
    summary: 'Read the first product with this id',
    ids: productId,
    action: { store: ({ ids, conditions }) => ({ kind: 'product.get', id: ids.id, conditions }), status: 200 },
    doc: { answers: { 200: dataAnswer(PRODUCT) } },
  }),
  route({
    method: 'PUT',
    path: '/products/:id',
    summary: 'Replace name, description and price; the id and place stay',
    body: productBody,
    ids: productId,
    // An unknown id is 404 even when the body is invalid.
    probe: ({ ids }) => ({ kind: 'product.probe', id: ids.id }),
    action: { store: ({ ids, body, conditions }) => ({ kind: 'product.replace', id: ids.id, fields: body, conditions }), status: 200 },
    doc: { answers: { 200: dataAnswer(PRODUCT) }, body: PRODUCT_BODY, errors: PRODUCT_FIELD_ERRORS, conditional: true },
  }),
  route({
    method: 'DELETE',
    path: '/products/:id',
    summary: 'Delete the first product with this id',
    ids: productId,
    action: { store: ({ ids, conditions }) => ({ kind: 'product.delete', id: ids.id, conditions }), status: 204 },
    doc: { answers: { 204: EMPTY_ANSWER }, conditional: true },
  }),
];
