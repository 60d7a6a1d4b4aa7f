/**
 * What a route declaration adds so that it can describe itself in the API
 * reference (src/openapi/ turns it into OpenAPI 3.1). The rest of the
 * description comes from the declaration the runner runs: method, path, ids,
 * body, query, idempotency, listing, and the protection the auth layer gives
 * it, so what is documented is what is served.
 */

/** A store action's status on success: 202 for a request taken to be done later (a webhook delivery sent again). */
export type SuccessStatus = 200 | 201 | 202 | 204;

/** A JSON Schema (draft 2020-12), as data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A success answer's body. */
export type AnswerDoc =
  /** JSON, described by a schema. */
  | { readonly kind: 'json'; readonly schema: JsonSchema }
  /** Anything else (metrics, the reference page and its files): text of one of these media types. */
  | { readonly kind: 'text'; readonly contentTypes: readonly string[] }
  /** No body (204, and 201/200 answers without one). */
  | { readonly kind: 'empty' };

export interface QueryParameterDoc {
  readonly description: string;
  readonly schema: JsonSchema;
}

export interface RouteDoc {
  /** Success answers by status. */
  readonly answers: Readonly<Partial<Record<SuccessStatus, AnswerDoc>>>;
  /** What the body validator accepts (only for routes that declare a body). */
  readonly body?: JsonSchema;
  /** The query parameters the query validator reads. */
  readonly query?: Readonly<Record<string, QueryParameterDoc>>;
  /**
   * Error codes the route's validators, access rule, action or store may
   * answer, beyond those its declaration implies (protection, body form, ids,
   * Idempotency-Key form, a busy store): the codes of the error tables.
   */
  readonly errors?: readonly string[];
  /**
   * A write that takes If-Match: 412 when it names another version than the
   * current one. (Every GET answered by the store is conditional anyway: the
   * runner gives its answer an ETag and answers If-None-Match with 304.)
   */
  readonly conditional?: boolean;
  /** A longer description than the summary, in CommonMark. */
  readonly description?: string;
}

/** `{"data": ...}`, the envelope of every success body but /login's and /health's. */
export function dataOf(schema: JsonSchema): JsonSchema {
  return { type: 'object', properties: { data: schema }, required: ['data'], additionalProperties: false };
}

/** A JSON success answer. */
export const jsonAnswer = (schema: JsonSchema): AnswerDoc => ({ kind: 'json', schema });

/** A JSON success answer `{"data": ...}`. */
export const dataAnswer = (schema: JsonSchema): AnswerDoc => ({ kind: 'json', schema: dataOf(schema) });

export const EMPTY_ANSWER: AnswerDoc = { kind: 'empty' };

/** The schema of IGNORED_BODY (route.ts): any JSON, nothing of it read. */
export const IGNORED_BODY_SCHEMA: JsonSchema = { description: 'Not read: any JSON value (or no body) is accepted and ignored; a body that is not JSON is refused as on every route.' };

/** An array of items. */
export const listOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** A value or null. */
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

/** An object whose keys are all required and which has no others: what the service writes. */
export function record(properties: Readonly<Record<string, JsonSchema>>, extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false, ...extra };
}

/** An ISO 8601 time in UTC. */
export const TIMESTAMP: JsonSchema = { type: 'string', format: 'date-time', examples: ['2026-11-22T10:15:00.000Z'] };
