import type { HttpErrorTable, TransportErrorCode } from '../http/http-errors.js';
import { IGNORED_BODY_SCHEMA, type JsonSchema } from '../http/route-doc.js';
import type { ServiceRoute } from '../auth/identity.js';
import type { AuthConfig } from '../auth/auth-config.js';
import { guardKindOf } from '../auth/protect-routes.js';
import { GUARD_REFUSALS, type GuardKind } from '../auth/schemes.js';
import { ERROR_SCHEMAS, responsesOf } from './operation-responses.js';
import { hoistNamedSchemas } from './named-schemas.js';

/**
 * The OpenAPI 3.1 document of the running service, made once at start-up
 * from the very route list the router serves, the error tables the response
 * writer uses, and the protection protectRoutes gives each route: what is
 * documented is what is served, in this mode, under this BASE_PATH, with
 * these PROTECT rules. A route whose doc disagrees with its declaration (a
 * body without a schema, a success status it does not document, an error
 * code no table declares) stops start-up.
 */

type OpenApiObject = Record<string, unknown>;
type AnyRoute = ServiceRoute<unknown, unknown, string, unknown>;

export interface DocumentParts {
  readonly routes: readonly AnyRoute[];
  readonly errors: HttpErrorTable;
  readonly auth: Pick<AuthConfig, 'rules' | 'marketplace' | 'apiKeyQuery'>;
  readonly basePath: string;
  readonly strict: boolean;
}

const SECURITY_SCHEMES: Readonly<Record<string, OpenApiObject>> = {
  basicAuth: { type: 'http', scheme: 'basic', description: 'An AUTH_USERS account' },
  apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'One of API_KEYS (an administrator in the marketplace)' },
  apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'One of API_KEYS as a query parameter (API_KEY_QUERY=1), wherever x-api-key is taken; both given and different is 403. Weaker than the header: URLs are logged by proxies and kept in browser history' },
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A token from POST /login' },
  queryToken: { type: 'apiKey', in: 'query', name: 'access_token', description: "A token from POST /login as a query parameter, on the event streams only, for a browser's EventSource (which cannot send headers); a header wins when both are given" },
};

const SECURITY: Readonly<Record<Exclude<GuardKind, 'none'>, readonly string[]>> = {
  basic: ['basicAuth'],
  apikey: ['apiKey'],
  bearer: ['bearerAuth'],
  // A request with x-api-key is judged as the apikey scheme, any other as bearer.
  admin: ['bearerAuth', 'apiKey'],
  'bearer-or-query': ['bearerAuth', 'queryToken'],
  'token-or-key': ['bearerAuth', 'apiKey'],
  'token-or-key-or-query': ['bearerAuth', 'apiKey', 'queryToken'],
};

const BODY_FORM_ERRORS: readonly TransportErrorCode[] = ['UNSUPPORTED_MEDIA_TYPE', 'BODY_TOO_LARGE', 'BODY_NOT_JSON'];

/** `/products/:id` as OpenAPI writes it: `/products/{id}`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function operationIdOf(route: AnyRoute): string {
  const words = route.path.split('/').filter((part) => part !== '').map((part) => (part.startsWith(':') ? `By${part.slice(1, 2).toUpperCase()}${part.slice(2)}` : part));
  return route.method.toLowerCase() + words.map((word) => word.slice(0, 1).toUpperCase() + word.slice(1).replace(/[^A-Za-z0-9]/g, '')).join('');
}

function pathParameterSchema(route: AnyRoute, name: string): JsonSchema {
  if (name === 'userId') return { anyOf: [{ type: 'integer', minimum: 1 }, { const: 'me' }], description: "The user's id, or `me` for the caller" };
  if (route.ids !== undefined && name in route.ids) return { type: 'integer', minimum: 0, description: 'Decimal digits (`007` is 7); anything else matches nothing (404)' };
  return { type: 'string' };
}

/** A GET answered by the store: the runner tags its 200 with an ETag and answers a matching If-None-Match with 304. */
const revalidated = (route: AnyRoute): boolean => route.method === 'GET' && 'store' in route.action;

function parametersOf(route: AnyRoute): OpenApiObject[] {
  const parameters: OpenApiObject[] = [];
  for (const match of route.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    const name = match[1] as string;
    parameters.push({ name, in: 'path', required: true, schema: pathParameterSchema(route, name) });
  }
  for (const [name, query] of Object.entries(route.doc.query ?? {})) parameters.push({ name, in: 'query', required: false, description: query.description, schema: query.schema });
  if (route.idempotency !== undefined) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: route.idempotency === 'required',
      description: 'A unique key per request: a repeat with the same body gets the first answer again',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  if (revalidated(route)) parameters.push({ name: 'If-None-Match', in: 'header', required: false, description: 'ETags: a match answers 304 without a body', schema: { type: 'string' } });
  if (route.doc.conditional === true) {
    parameters.push({ name: 'If-Match', in: 'header', required: false, description: 'ETags: when none is the current version, 412 and nothing changes', schema: { type: 'string' } });
  }
  return parameters;
}

function errorCodesOf(route: AnyRoute, guard: GuardKind): string[] {
  const store = 'store' in route.action;
  return [
    ...(guard === 'none' ? [] : GUARD_REFUSALS[guard]),
    ...(route.body === undefined ? [] : BODY_FORM_ERRORS),
    ...Object.values<string>(route.ids ?? {}),
    ...(route.doc.errors ?? []),
    ...(route.idempotency === undefined ? [] : route.idempotency === 'required' ? ['IDEMPOTENCY_KEY_MISSING', 'IDEMPOTENCY_KEY_INVALID'] : ['IDEMPOTENCY_KEY_INVALID']),
    ...(route.idempotency !== undefined && store ? ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_PROGRESS'] : []),
    ...(route.doc.conditional === true ? ['PRECONDITION_FAILED'] : []),
    ...(store || route.probe !== undefined ? ['STORE_BUSY'] : []),
    'INTERNAL',
  ];
}

/** The checks that keep a doc honest about its declaration. */
function checkDoc(route: AnyRoute): void {
  const where = `${route.method} ${route.path}`;
  if ((route.body === undefined) !== (route.doc.body === undefined)) throw new Error(`${where}: a body is read if and only if its doc has a body schema`);
  if ((route.query === undefined) !== (route.doc.query === undefined)) throw new Error(`${where}: a query is read if and only if its doc names its parameters`);
  if ('store' in route.action && route.doc.answers[route.action.status] === undefined) throw new Error(`${where}: its doc does not describe its ${route.action.status} answer`);
}

function operationOf(route: AnyRoute, parts: DocumentParts, schemes: Set<string>): OpenApiObject {
  checkDoc(route);
  const guard = guardKindOf(route, parts.auth);
  const names = guard === 'none' ? [] : SECURITY[guard].flatMap((name) => (name === 'apiKey' && parts.auth.apiKeyQuery ? [name, 'apiKeyQuery'] : [name]));
  const security = names.map((name) => ({ [name]: [] }));
  for (const requirement of security) for (const name of Object.keys(requirement)) schemes.add(name);
  const { doc } = route;
  const headers = { etag: revalidated(route) || (doc.conditional === true && route.method === 'PUT'), listing: 'store' in route.action && route.action.listing !== undefined, replayable: route.idempotency !== undefined };
  const parameters = parametersOf(route);
  return {
    operationId: operationIdOf(route),
    summary: route.summary,
    ...(doc.description === undefined ? {} : { description: doc.description }),
    tags: [route.path.split('/')[1] ?? ''],
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(doc.body === undefined ? {} : { requestBody: { required: doc.body !== IGNORED_BODY_SCHEMA, content: { 'application/json': { schema: doc.body } } } }),
    responses: responsesOf(doc.answers, errorCodesOf(route, guard), parts.errors, headers, revalidated(route)),
    security,
  };
}

function descriptionOf(parts: DocumentParts): string {
  const mode = parts.auth.marketplace ? 'the marketplace (MARKETPLACE=1, strict implied)' : parts.strict ? 'the catalogue in strict mode (STRICT=1)' : "the catalogue with the seed's quirks";
  return [
    `The catalogue service as this instance runs it: ${mode}${parts.basePath === '' ? '' : `, under BASE_PATH \`${parts.basePath}\``}.`,
    parts.strict ? 'A body that is not valid JSON is 400 `{"error", "code": 400}`.' : 'A body that is not valid JSON is answered with status **200** and `{"error", "code": 400}` (the seed\'s quirk; STRICT=1 makes it 400).',
    'Every path also answers HEAD where it answers GET, OPTIONS with 204 and `Allow`, any other method with 405 and `Allow`, and an unknown path with 404.',
  ].join('\n\n');
}

/** The document as a plain object; `JSON.stringify` it once. */
export function openApiDocument(parts: DocumentParts): OpenApiObject {
  const schemes = new Set<string>();
  const paths: Record<string, Record<string, OpenApiObject>> = {};
  for (const route of parts.routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route, parts, schemes) };
  }
  const { value, named } = hoistNamedSchemas(paths);
  return {
    openapi: '3.1.0',
    info: { title: 'catalogue', version: '1.0.0', description: descriptionOf(parts) },
    servers: [{ url: parts.basePath === '' ? '/' : parts.basePath, description: 'This service' }],
    paths: value,
    components: {
      schemas: { ...ERROR_SCHEMAS, ...named },
      securitySchemes: Object.fromEntries([...schemes].sort().map((name) => [name, SECURITY_SCHEMES[name]])),
    },
  };
}
