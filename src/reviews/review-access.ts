import type { ReviewDeleter } from '../../workers/reviews/review-protocol.js';
import type { AuthErrorCode } from '../auth/auth-errors.js';
import type { Identity } from '../auth/identity.js';
import { errorReply } from '../http/reply.js';
import type { AccessOutcome, AccessRequest } from '../http/route.js';

const GRANTED: AccessOutcome = { kind: 'granted', ids: {} };

/**
 * DELETE of a review: its author or an administrator (contract section 7).
 * Whether the caller is the author is the store's to say (404 otherwise), so
 * here any customer or administrator passes; a token without a role does not.
 */
export function customerOrAdmin({ caller }: AccessRequest<Identity>): AccessOutcome {
  return caller?.role === 'customer' || caller?.role === 'admin' ? GRANTED : errorReply('ROLE_REQUIRED' satisfies AuthErrorCode);
}

/** Who deletes, for the store: a customer may delete only their own review, an administrator any. */
export function deleterOf(caller: Identity | undefined): ReviewDeleter {
  if (caller?.role === 'customer') return { role: 'customer', userId: caller.userId };
  if (caller?.role === 'admin') return { role: 'admin' };
  // customerOrAdmin ran first; failing closed keeps a mistake from deleting as an administrator.
  throw new Error(`a review delete reached the store for a caller who is neither a customer nor an administrator (${caller?.role ?? 'none'})`);
}
