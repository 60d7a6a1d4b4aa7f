import type { Logger } from '../log/logger.js';
import type { Reply } from '../http/reply.js';
import type { IdempotencyClaim, SuccessStatus } from '../http/route.js';
import type { ListingRequest } from '../http/route-runner.js';
import type { StoreCommand } from '../../workers/store-protocol.js';
import type { StoreClient } from './store-client.js';
import { storeReplyToHttp } from './store-replies.js';

/**
 * How a route's store action reaches the store and comes back as HTTP. A
 * request that carried an Idempotency-Key sends its command wrapped in
 * `idempotency.run`, so the key's check, the command and the remembered
 * answer are one step of the store: no other request comes between them.
 */
export function routeDispatch(store: StoreClient, log: Logger) {
  // Not an async function: one promise a request (the store's answer, mapped) rather than two.
  return (command: StoreCommand, status: SuccessStatus, listing?: ListingRequest, idempotency?: IdempotencyClaim): Promise<Reply> => {
    const sent: StoreCommand = idempotency === undefined ? command : { kind: 'idempotency.run', claim: idempotency, status, command };
    return store.send(sent).then((reply) => storeReplyToHttp(reply, status, log, listing));
  };
}
