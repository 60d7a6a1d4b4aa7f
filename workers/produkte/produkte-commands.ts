import type { CommandHandlers } from '../command-handlers.js';
import { ok, refused } from '../command-handlers.js';
import { failsPrecondition, isNotModified } from '../conditions.js';
import { dataEnvelope } from '../json-text.js';
import type { ProdukteCommand, ProdukteStoreError } from './produkte-protocol.js';
import type { ProdukteStore } from './produkte-store.js';

const NOT_FOUND = refused('PRODUKTE_ITEM_NOT_FOUND' satisfies ProdukteStoreError);
const CHANGED = refused('PRECONDITION_FAILED' satisfies ProdukteStoreError);

/**
 * /produkte: the minimal variant. Its create answers only the new id, its
 * delete a confirmation. Reads carry an ETag (304 to a matching
 * If-None-Match); a delete with If-Match naming another version is 412.
 */
export function produkteCommands(produkte: ProdukteStore): CommandHandlers<ProdukteCommand> {
  return {
    'produkte.list': ({ conditions }) => {
      const etag = produkte.listEtag;
      return isNotModified(conditions, etag) ? { kind: 'not-modified', etag } : { kind: 'ok', body: dataEnvelope(produkte.listJson()), etag };
    },
    'produkte.get': ({ id, conditions }) => {
      const item = produkte.get(id);
      if (item === undefined) return NOT_FOUND;
      return isNotModified(conditions, item.etag) ? { kind: 'not-modified', etag: item.etag } : { kind: 'ok', body: dataEnvelope(item.json), etag: item.etag };
    },
    'produkte.create': ({ fields }) => ok(dataEnvelope(`{"id":${produkte.create(fields)}}`)),
    'produkte.delete': ({ id, conditions }) => {
      const item = produkte.get(id);
      if (item === undefined) return NOT_FOUND;
      if (failsPrecondition(conditions, item.etag)) return CHANGED;
      produkte.delete(id);
      return ok(dataEnvelope(`{"id":${id},"deleted":true}`));
    },
  };
}
