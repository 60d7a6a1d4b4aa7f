import type { ProdukteCommand } from '../../workers/produkte/produkte-protocol.js';
import { routesOf } from '../auth/identity.js';
import { validateProdukteItem } from './produkte-input.js';

const route = routesOf<ProdukteCommand>();
const itemId = { id: 'PRODUKTE_ITEM_NOT_FOUND' } as const;

/** /produkte: the seed's minimal variant, its own collection in the same store worker. */
export const produkteRoutes = [
  route({
    method: 'GET',
    path: '/produkte',
    summary: 'List every item as {id, name, price}',
    action: { store: ({ conditions }) => ({ kind: 'produkte.list', conditions }), status: 200 },
  }),
  route({
    method: 'POST',
    path: '/produkte',
    summary: 'Create an item; answers its id (the highest id plus one)',
    body: { validate: validateProdukteItem, quoteParseError: true },
    action: { store: ({ body }) => ({ kind: 'produkte.create', fields: body }), status: 201 },
  }),
  route({
    method: 'GET',
    path: '/produkte/:id',
    summary: 'Read one item',
    ids: itemId,
    action: { store: ({ ids, conditions }) => ({ kind: 'produkte.get', id: ids.id, conditions }), status: 200 },
  }),
  route({
    method: 'DELETE',
    path: '/produkte/:id',
    summary: 'Delete one item; answers {id, deleted: true}',
    ids: itemId,
    action: { store: ({ ids, conditions }) => ({ kind: 'produkte.delete', id: ids.id, conditions }), status: 200 },
  }),
];
