import { errorReply } from '../http/reply.js';
import type { AccessOutcome, AccessRequest } from '../http/route.js';
import { parseId } from '../http/path-ids.js';
import type { Identity, ServiceRoute } from './identity.js';
import type { AuthErrorCode } from './auth-errors.js';

/**
 * Who may do what in the marketplace, beyond proving who they are (contract
 * section 7, "Who is who"). Each rule runs right after protection, before the
 * body is read, so a refused caller's body is never looked at.
 */

const refuse = (code: AuthErrorCode) => errorReply(code);
const GRANTED: AccessOutcome = { kind: 'granted', ids: {} };

/**
 * `/users/:userId/...`: `:userId` is the caller's own id or `me`. A customer
 * naming anyone else is refused; an administrator may read (GET) any user's
 * resources but not act as them, and has no id of their own, so `me` names
 * no one. The resolved id is handed on as `ids.userId`; whether an id an
 * administrator names exists is the store's to say (404).
 */
export function ownUser({ caller, method, params }: AccessRequest<Identity>): AccessOutcome {
  const named = params.userId;
  if (caller?.role === 'customer') {
    if (named !== 'me' && parseId(named) !== caller.userId) return refuse('NOT_YOUR_DATA');
    return { kind: 'granted', ids: { userId: caller.userId } };
  }
  if (caller?.role !== 'admin') return refuse('ROLE_REQUIRED');
  if (named === 'me') return refuse('ADMIN_HAS_NO_USER');
  if (method !== 'GET') return refuse('ADMIN_READ_ONLY');
  const userId = parseId(named);
  return userId === undefined ? refuse('USER_NOT_FOUND') : { kind: 'granted', ids: { userId } };
}

/** Customers only (writing reviews): administrators do not act as customers. */
export function customersOnly({ caller }: AccessRequest<Identity>): AccessOutcome {
  if (caller?.role === 'customer') return { kind: 'granted', ids: { userId: caller.userId } };
  return refuse(caller?.role === 'admin' ? 'ADMIN_READ_ONLY' : 'ROLE_REQUIRED');
}

/** Administrators only (all orders, fulfilment), whatever scheme guards the route. */
export function adminsOnly({ caller }: AccessRequest<Identity>): AccessOutcome {
  return caller?.role === 'admin' ? GRANTED : refuse('ADMIN_REQUIRED');
}

/** What a per-user route declares: everything but its protection and access rule, which are fixed. */
export type UserRouteDeclaration<Command, Body, Ids extends string, Query> = Omit<ServiceRoute<Command, Body, Ids | 'userId', Query>, 'protection' | 'authorize' | 'ids'> & {
  readonly ids?: Readonly<Record<Ids, string>>;
};

/**
 * Declares the routes under `/users/:userId/...` (addresses, wish lists,
 * carts, orders): each needs a Bearer token whatever PROTECT says and runs
 * `ownUser`, so no route can forget either, and its action reads the
 * resolved id as `ids.userId`.
 */
export function userRoutesOf<Command>() {
  return <Body = undefined, Ids extends string = never, Query = undefined>(route: UserRouteDeclaration<Command, Body, Ids, Query>): ServiceRoute<Command, unknown, string, unknown> => {
    if (!route.path.startsWith('/users/:userId')) throw new Error(`${route.method} ${route.path} is not under /users/:userId`);
    return { ...route, protection: 'bearer-always', authorize: ownUser };
  };
}
