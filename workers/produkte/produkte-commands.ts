import type { CommandHandlers } from '../command-handlers.js';
import { ok, refused } from '../command-handlers.js';
import { dataEnvelope } from '../json-text.js';
import type { ProdukteCommand, ProdukteStoreError } from './produkte-protocol.js';
import type { ProdukteStore } from './produkte-store.js';

const NOT_FOUND = refused('PRODUKTE_ITEM_NOT_FOUND' satisfies ProdukteStoreError);

/** /produkte: the minimal variant. Its create answers only the new id, its delete a confirmation. */
export function produkteCommands(produkte: ProdukteStore): CommandHandlers<ProdukteCommand> {
  return {
    'produkte.list': () => ok(dataEnvelope(produkte.listJson())),
    'produkte.get': ({ id }) => {
      const json = produkte.get(id);
      return json === undefined ? NOT_FOUND : ok(dataEnvelope(json));
    },
    'produkte.create': ({ fields }) => ok(dataEnvelope(`{"id":${produkte.create(fields)}}`)),
    'produkte.delete': ({ id }) => (produkte.delete(id) ? ok(dataEnvelope(`{"id":${id},"deleted":true}`)) : NOT_FOUND),
  };
}
