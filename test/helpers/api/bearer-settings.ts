/**
 * The service of the Bearer tests (test/http/auth/auth-bearer*.test.ts): two
 * users, a known JWT_SECRET (the tests make and check tokens with
 * node:crypto against it, not with the library the service uses) and three
 * routes under bearer besides GET /me.
 */
export const SECRET = 'bearer-test-secret-5f1c0e9a7b3d2c4e6f8a';
const PROTECT = 'GET /produkte/:id=bearer,POST /produkte=bearer,DELETE /products/:id=bearer';
export const SETTINGS = { env: { AUTH_USERS: 'alice:secret,bob:pw', JWT_SECRET: SECRET, PROTECT } };
