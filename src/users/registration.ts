import type { UserCommand } from '../../workers/users/user-protocol.js';
import type { AuthErrorCode } from '../auth/auth-errors.js';
import type { HashGate } from '../auth/hash-gate.js';
import type { Identity } from '../auth/identity.js';
import { hashPassword } from '../auth/passwords.js';
import { errorReply, type Reply } from '../http/reply.js';
import type { RouteInput } from '../http/route.js';
import type { UserErrorCode } from './user-errors.js';
import type { Registration } from './user-input.js';
import type { RegisterThrottle } from './register-throttle.js';

export interface RegistrationParts {
  /** The same gate as password checks: registrations and logins share the hashing budget. */
  readonly gate: HashGate;
  readonly throttle: RegisterThrottle;
  /** AUTH_USERS: an email that is an administrator's name, compared lower-cased, is taken. */
  readonly accountNames: { hasNameLike(name: string): boolean };
  /** Sends a command to the store and answers its reply, with `status` on success. */
  readonly dispatch: (command: UserCommand, status: 201) => Promise<Reply>;
  /** PASSWORD_HASH_COST: scrypt's log2 N for customers' passwords. */
  readonly hashCost: number;
}

/**
 * POST /users/register once its body is valid: the client address's hourly
 * allowance, the administrators' names, the scrypt hash (here, in the front,
 * through the hashing gate: the store must never run a slow hash), then the
 * store, which checks and takes the email in one step (409 if it is taken,
 * even by a registration that raced this one). Nothing here logs: the
 * password and its hash never leave this function but to the store.
 */
export function registerCustomer({ gate, throttle, accountNames, dispatch, hashCost }: RegistrationParts) {
  return async ({ clientAddress: address, body: { email, password, name } }: RouteInput<Identity, Registration>): Promise<Reply> => {
    const wait = throttle.take(address);
    if (wait > 0) return errorReply('REGISTER_THROTTLED' satisfies UserErrorCode, { headers: ['retry-after', String(wait)] });
    if (accountNames.hasNameLike(email)) return errorReply('EMAIL_TAKEN' satisfies UserErrorCode);
    const passwordHash = await gate.run(() => hashPassword(password, hashCost));
    if (passwordHash === 'busy') {
      throttle.giveBack(address);
      return errorReply('HASHING_BUSY' satisfies AuthErrorCode);
    }
    return dispatch({ kind: 'users.register', user: { email, name, passwordHash } }, 201);
  };
}
