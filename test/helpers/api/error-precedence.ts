/**
 * The error-precedence table's machinery (contract section 7: which error
 * wins when several apply to one request): a row per route says how to make
 * each error happen on an otherwise valid request (a "spoiler") and what it
 * answers; assertPrecedence sends every spoiler alone, then every pair of
 * them together, expecting the earlier error of the pair. The rows and the
 * shop they need are the test's (marketplace-error-precedence.test.ts).
 */
import { randomUUID } from 'node:crypto';
import type { ExecutionContext } from 'ava';
import { call, type ApiResponse } from './product-api.js';
import type { ServiceUnderTest } from '../service/service.js';
import { BEARER_CHALLENGE, type CredentialHeaders } from './auth-api.js';

/** The contract's order: an error earlier in this list wins over any later one. */
export const PRECEDENCE = ['unauthenticated', 'forbidden', 'media', 'tooLarge', 'unparsable', 'missing', 'notAnId', 'invalid', 'unverified', 'conflict', 'declined'] as const;
export type ErrorKind = (typeof PRECEDENCE)[number];

/** The service's BODY_LIMIT in these tests: tooLarge pads past it. */
export const BODY_LIMIT = 4096;
export const NOWHERE = '999999';

/** One request, before it is sent: the path's parameters, the caller, the body and its type. */
export interface Attempt {
  readonly auth: CredentialHeaders;
  readonly params: Readonly<Record<string, string>>;
  readonly json: unknown;
  /** Sent instead of the JSON when set (a body that is not JSON). */
  readonly raw?: string;
  readonly contentType: string;
  /** Padding that takes the body past BODY_LIMIT (an unknown key, so the values stay what they are). */
  readonly padded?: true;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Makes one error happen. `others` are the errors the same request also
 * carries, for the rare spoilers that must choose a caller having both
 * (a customer who reviewed a product but no longer has a paid order of it).
 */
export type Spoiler = (attempt: Attempt, others: ReadonlySet<ErrorKind>) => Attempt;

export interface Expected {
  readonly status: number;
  /** The JSON error message; undefined for the schemes' text/plain answers. */
  readonly says?: RegExp;
}

export interface Row {
  readonly method: 'POST' | 'PUT' | 'PATCH';
  readonly path: string;
  readonly valid: Attempt;
  readonly spoilers: Partial<Record<ErrorKind, Spoiler>>;
  /** What the row's route-specific errors answer (the body's form and 401 are the same everywhere). */
  readonly expect: Partial<Record<ErrorKind, Expected>>;
  /** Pairs that cannot be on one request: both change the same path parameter. */
  readonly apart?: readonly (readonly [ErrorKind, ErrorKind])[];
}

export const COMMON: Partial<Record<ErrorKind, Expected>> = {
  unauthenticated: { status: 401 },
  media: { status: 415, says: /content type|content-type|json/i },
  tooLarge: { status: 413, says: /large|limit/i },
  unparsable: { status: 400, says: /JSON/ },
};

export const BODY_FORM: Partial<Record<ErrorKind, Spoiler>> = {
  media: (attempt) => ({ ...attempt, contentType: 'text/plain' }),
  tooLarge: (attempt) => ({ ...attempt, padded: true }),
  unparsable: (attempt) => ({ ...attempt, raw: '{"broken": ' }),
};

export const withParam = (name: string, value: string): Spoiler => (attempt) => ({ ...attempt, params: { ...attempt.params, [name]: value } });

/**
 * A path resource that does not exist, two ways: a well-formed id nothing
 * has (the store says 404) and one that cannot be an id (the router's stage
 * says 404 before asking the store). Both are the same error, never paired.
 */
export const missingParam = (name: string): Partial<Record<ErrorKind, Spoiler>> => ({ missing: withParam(name, NOWHERE), notAnId: withParam(name, '4x') });
export const SAME_ERROR: readonly (readonly [ErrorKind, ErrorKind])[] = [['missing', 'notAnId']];
export const withAuth = (auth: CredentialHeaders): Spoiler => (attempt) => ({ ...attempt, auth });
export const withJson = (change: Readonly<Record<string, unknown>>): Spoiler => (attempt) => ({ ...attempt, json: { ...(attempt.json as object), ...change } });
export const unauthenticated: Spoiler = (attempt) => ({ ...attempt, auth: {} });

/** Everything the rows need, made through the API: customers in every state a row's errors need. */

export function send(service: ServiceUnderTest, row: Row, attempt: Attempt): Promise<ApiResponse> {
  const path = row.path.replace(/:(\w+)/g, (_, name: string) => attempt.params[name] ?? `<no ${name}>`);
  const padding = 'x'.repeat(BODY_LIMIT);
  const text = attempt.raw === undefined ? JSON.stringify(attempt.padded === true ? { ...(attempt.json as object), padding } : attempt.json) : attempt.raw + (attempt.padded === true ? padding : '');
  // Every try gets its own key: a key is the answer's, and a refused body must not meet an earlier answer.
  const key = attempt.headers?.['idempotency-key'] === undefined ? {} : { 'idempotency-key': randomUUID() };
  return call(service, row.method, path, { raw: text }, { ...attempt.headers, ...key, ...attempt.auth, 'content-type': attempt.contentType });
}

/** The spoilers applied latest-first, so that the earlier error is made last and nothing undoes it. */
export function spoil(row: Row, kinds: readonly ErrorKind[]): Attempt {
  const others = new Set(kinds);
  return [...kinds].sort((a, b) => PRECEDENCE.indexOf(b) - PRECEDENCE.indexOf(a)).reduce((attempt, kind) => (row.spoilers[kind] as Spoiler)(attempt, others), row.valid);
}

export function assertAnswer(t: ExecutionContext, response: ApiResponse, expected: Expected, label: string): void {
  t.is(response.status, expected.status, `${label}: ${response.text}`);
  if (expected.says === undefined) {
    t.is(response.headers.get('www-authenticate'), BEARER_CHALLENGE, label);
    return;
  }
  t.regex((response.body as { error?: string } | undefined)?.error ?? '', expected.says, `${label}: ${response.text}`);
}

export const kindsOf = (row: Row): ErrorKind[] => PRECEDENCE.filter((kind) => row.spoilers[kind] !== undefined);
export const expectedOf = (row: Row, kind: ErrorKind): Expected => {
  const expected = row.expect[kind === 'notAnId' ? 'missing' : kind] ?? COMMON[kind];
  if (expected === undefined) throw new Error(`${row.method} ${row.path} has a ${kind} spoiler and no expected answer`);
  return expected;
};

/** `POST /users/:userId/orders` for every POST, PUT and PATCH operation of the served API document, and whether it documents a body. */
export async function operationsWithBody(service: ServiceUnderTest): Promise<{ operation: string; body: boolean }[]> {
  const document = (await call(service, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => ['post', 'put', 'patch'].includes(method))
      .map(([method, operation]) => ({ operation: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, body: operation.requestBody !== undefined })),
  );
}

/** Every row's spoilers alone, then every pair not kept apart, each answered as its earlier error says. */
export async function assertPrecedence(t: ExecutionContext, service: ServiceUnderTest, table: readonly Row[]): Promise<void> {
  for (const row of table) {
    const kinds = kindsOf(row);
    for (const kind of kinds) assertAnswer(t, await send(service, row, spoil(row, [kind])), expectedOf(row, kind), `${row.method} ${row.path}, ${kind} alone`);
    for (const [index, first] of kinds.entries()) {
      for (const second of kinds.slice(index + 1)) {
        if ([...SAME_ERROR, ...(row.apart ?? [])].some(([a, b]) => (a === first && b === second) || (a === second && b === first))) continue;
        assertAnswer(t, await send(service, row, spoil(row, [first, second])), expectedOf(row, first), `${row.method} ${row.path}, ${first} and ${second}`);
      }
    }
  }
}
