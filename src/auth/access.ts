import { errorReply } from '../http/reply.js';
import type { AccessOutcome, AccessRequest, RouteMethod } from '../http/route.js';
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

/**
 * The refusals `ownUser` can answer a method with, for the API reference: an
 * administrator is refused any method but GET, and only a GET can name an
 * unknown user (a customer's own id always exists).
 */
export function ownUserRefusals(method: RouteMethod): readonly AuthErrorCode[] {
  return method === 'GET' ? ['ROLE_REQUIRED', 'NOT_YOUR_DATA', 'ADMIN_HAS_NO_USER', 'USER_NOT_FOUND'] : ['ROLE_REQUIRED', 'NOT_YOUR_DATA', 'ADMIN_HAS_NO_USER', 'ADMIN_READ_ONLY'];
}

/** The refusals of `customersOnly` and `adminsOnly`, for the API reference. */
export const CUSTOMERS_ONLY_REFUSALS: readonly AuthErrorCode[] = ['ROLE_REQUIRED', 'ADMIN_READ_ONLY'];
export const ADMINS_ONLY_REFUSALS: readonly AuthErrorCode[] = ['ADMIN_REQUIRED'];

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
    const errors = [...ownUserRefusals(route.method), ...(route.doc.errors ?? [])];
    return { ...route, protection: 'bearer-always', authorize: ownUser, doc: { ...route.doc, errors } };
  };
}
