import type { ProdukteCommand } from '../../workers/produkte/produkte-protocol.js';
import { routesOf } from '../auth/identity.js';
import { validateProdukteItem } from './produkte-input.js';
import { dataAnswer } from '../http/route-doc.js';
import { PRODUKTE_BODY, PRODUKTE_CREATED, PRODUKTE_DELETED, PRODUKTE_ITEM, PRODUKTE_LIST } from './produkte-schemas.js';

const route = routesOf<ProdukteCommand>();
const itemId = { id: 'PRODUKTE_ITEM_NOT_FOUND' } as const;

/** /produkte: the seed's minimal variant, its own collection in the same store worker. */
export const produkteRoutes = [
  route({
    method: 'GET',
    path: '/produkte',
    summary: 'List every item as {id, name, price}',
    action: { store: ({ conditions }) => ({ kind: 'produkte.list', conditions }), status: 200 },
    doc: { answers: { 200: dataAnswer(PRODUKTE_LIST) } },
  }),
  route({
    method: 'POST',
    path: '/produkte',
    summary: 'Create an item; answers its id (the highest id plus one)',
    body: { validate: validateProdukteItem, quoteParseError: true },
    action: { store: ({ body }) => ({ kind: 'produkte.create', fields: body }), status: 201 },
    doc: { answers: { 201: dataAnswer(PRODUKTE_CREATED) }, body: PRODUKTE_BODY, errors: ['PRODUKTE_FIELDS_REQUIRED', 'PRODUKTE_NAME_NOT_STRING', 'PRODUKTE_PRICE_NOT_NUMBER'] },
  }),
  route({
    method: 'GET',
    path: '/produkte/:id',
    summary: 'Read one item',
    ids: itemId,
    action: { store: ({ ids, conditions }) => ({ kind: 'produkte.get', id: ids.id, conditions }), status: 200 },
    doc: { answers: { 200: dataAnswer(PRODUKTE_ITEM) } },
  }),
  route({
    method: 'DELETE',
    path: '/produkte/:id',
    summary: 'Delete one item; answers {id, deleted: true}',
    ids: itemId,
    action: { store: ({ ids, conditions }) => ({ kind: 'produkte.delete', id: ids.id, conditions }), status: 200 },
    doc: { answers: { 200: dataAnswer(PRODUKTE_DELETED) }, conditional: true },
  }),
];
