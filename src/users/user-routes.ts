import type { UserCommand } from '../../workers/users/user-protocol.js';
import { userRoutesOf } from '../auth/access.js';
import { routesOf } from '../auth/identity.js';
import { validateRegistration } from './user-input.js';
import { registerCustomer, type RegistrationParts } from './registration.js';
import { dataAnswer } from '../http/route-doc.js';
import { REGISTRATION_BODY, USER } from './user-schemas.js';

const route = routesOf<UserCommand>();
const userRoute = userRoutesOf<UserCommand>();

/** /users (contract section 7, "Users"): registration, and a user as themselves or an administrator sees them. */
export function userRoutes(registration: RegistrationParts) {
  return [
    route({
      method: 'POST',
      path: '/users/register',
      summary: 'Register a customer: {email, password, name}; the password is kept only as an scrypt hash',
      // Like /login: how a customer gets credentials, so PROTECT cannot close it.
      protection: 'open',
      // The body holds a password: a parse error must not quote it back.
      body: { validate: validateRegistration, quoteParseError: false },
      action: { handle: registerCustomer(registration) },
      doc: { answers: { 201: dataAnswer(USER) }, body: REGISTRATION_BODY, errors: ['USER_FIELD_INVALID', 'EMAIL_TAKEN', 'REGISTER_THROTTLED', 'HASHING_BUSY', 'STORE_BUSY'] },
    }),
    userRoute({
      method: 'GET',
      path: '/users/:userId',
      summary: "A user: one's own (an id or me), or any user's for an administrator",
      action: { store: ({ ids }) => ({ kind: 'users.get', userId: ids.userId }), status: 200 },
      doc: { answers: { 200: dataAnswer(USER) } },
    }),
  ];
}
