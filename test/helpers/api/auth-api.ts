/**
 * Credentials for the protection tests (contract section 5): header builders
 * for each scheme, POST /login, JWTs crafted here with node:crypto (so the
 * tests do not trust the library under test to make the bad ones), and the
 * plain-text failure answers every scheme gives.
 */
import { Buffer } from 'node:buffer';
import { createHmac } from 'node:crypto';
import type { ExecutionContext } from 'ava';
import type { ServiceUnderTest } from '../service/service.js';
import { hashPassword } from '../../../src/auth/passwords.js';
import { postJson, type ApiResponse } from './product-api.js';

export type CredentialHeaders = Readonly<Record<string, string>>;

export const basicAuth = (username: string, password: string): CredentialHeaders => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`,
});
export const bearerAuth = (token: string): CredentialHeaders => ({ authorization: `Bearer ${token}` });
export const apiKeyAuth = (key: string): CredentialHeaders => ({ 'x-api-key': key });

export const BASIC_CHALLENGE = 'Basic realm="catalogue", charset="UTF-8"';
export const BEARER_CHALLENGE = 'Bearer realm="catalogue"';

/** The gist of each failure message; the wording may change, the meaning may not. */
export const SAYS = {
  headerRequired: /authorization header is required/i,
  credentialsInvalid: /invalid.*credentials|credentials.*invalid|invalid.*(user|password)/i,
  keyInvalid: /invalid.*key|key.*invalid/i,
  tokenRequired: /token.*required|required.*token/i,
  tokenInvalid: /invalid|expired/i,
} as const;

/**
 * Asserts a protection failure: the status, a `text/plain` body that says
 * `message`, and the challenge header when the scheme sends one (`null`:
 * none is expected).
 */
export function assertTextFailure(
  t: ExecutionContext,
  response: ApiResponse,
  status: number,
  message: RegExp,
  challenge: string | null,
  label = '',
): void {
  t.is(response.status, status, `${label}: expected ${status}, got ${response.status} ${response.text}`);
  t.regex(response.headers.get('content-type') ?? '', /^text\/plain(;|$)/, `${label}: content type`);
  t.regex(response.text, message, `${label}: body "${response.text}"`);
  if (challenge !== null) t.is(response.headers.get('www-authenticate'), challenge, `${label}: WWW-Authenticate`);
}

/** POST /login that must succeed: the token. */
export async function login(service: ServiceUnderTest, username: string, password: string): Promise<string> {
  const response = await postJson(service, '/login', { username, password });
  const token = (response.body as { token?: unknown } | undefined)?.token;
  if (response.status !== 200 || typeof token !== 'string') throw new Error(`POST /login as ${username} answered ${response.status}: ${response.text}`);
  return token;
}

export interface DecodedToken {
  readonly header: Record<string, unknown>;
  readonly payload: Record<string, unknown>;
  readonly signature: string;
}

/** Reads a compact JWT without checking it. */
export function decodeToken(token: string): DecodedToken {
  const [header = '', payload = '', signature = ''] = token.split('.');
  const part = (text: string): Record<string, unknown> => JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: part(header), payload: part(payload), signature };
}

const json64 = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

export function hmacSignature(algorithm: 'HS256' | 'HS512', secret: string, signingInput: string): string {
  return createHmac(algorithm === 'HS256' ? 'sha256' : 'sha512', secret).update(signingInput).digest('base64url');
}

/** A JWT made in the test: HS256 by default, any algorithm the tests need to refuse, or unsigned (`none`). */
export function craftToken(payload: Readonly<Record<string, unknown>>, secret: string, alg: 'HS256' | 'HS512' | 'none' = 'HS256'): string {
  const signingInput = `${json64({ alg, typ: 'JWT' })}.${json64(payload)}`;
  return alg === 'none' ? `${signingInput}.` : `${signingInput}.${hmacSignature(alg, secret, signingInput)}`;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The shape `node dist/main.js hash-password` prints. */
export const SCRYPT_HASH = /^scrypt\.14\.8\.5\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * The scrypt hash `node dist/main.js hash-password` would print for the
 * password, made in process by the same function (the command itself is
 * tested as a process in test/process/hash-password.test.ts).
 */
export async function scryptHashOf(password: string): Promise<string> {
  const hash = await hashPassword(password);
  if (!SCRYPT_HASH.test(hash)) throw new Error(`hashPassword made a hash of another shape: ${hash.slice(0, 20)}...`);
  return hash;
}
