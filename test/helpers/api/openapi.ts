/**
 * The API reference under test: the document a running service serves, the
 * routes its router matches, and a checker that validates real answers
 * (status, content type, body) against the documented responses with ajv.
 */
import type { ExecutionContext } from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Registry } from 'prom-client';
import { createApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { settingLookup } from '../../../src/config/settings.js';
import { createLogger } from '../../../src/log/logger.js';
import type { StoreClient } from '../../../src/store/store-client.js';
import type { ApiResponse } from './product-api.js';
import { call, getJson, type RequestBody } from './product-api.js';
import type { ServiceUnderTest } from '../service/service.js';

// ajv-formats is CommonJS with its function as the default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export type OpenApiDocument = {
  readonly openapi: string;
  readonly servers: readonly { readonly url: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
  readonly components: { readonly schemas: Readonly<Record<string, unknown>>; readonly securitySchemes: Readonly<Record<string, unknown>> };
};

export interface Operation {
  readonly responses: Readonly<Record<string, { readonly content?: Readonly<Record<string, { readonly schema: unknown }>>; readonly headers?: Readonly<Record<string, unknown>> }>>;
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  readonly requestBody?: unknown;
  readonly parameters?: readonly { readonly name: string; readonly in: string }[];
}

export async function documentOf(service: ServiceUnderTest): Promise<OpenApiDocument> {
  const response = await getJson(service, '/openapi.json');
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  return response.body as OpenApiDocument;
}

/** `METHOD /path/{param}` for every documented operation, the server's URL path in front (BASE_PATH). */
export function documentedOperations(document: OpenApiDocument): string[] {
  const server = document.servers[0]?.url === '/' ? '' : (document.servers[0]?.url ?? '');
  return Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${server}${path}`));
}

const NO_STORE: StoreClient = { send: () => Promise.reject(new Error('no store in this test')) };

/** What the router of a service configured with `env` matches, written as OpenAPI paths. */
export function servedOperations(env: Readonly<Record<string, string>>): string[] {
  const config = loadConfig(settingLookup({ LOG_LEVEL: 'silent', ...env }, []));
  // The service counts requests only when METRICS is on, which adds GET /metrics.
  const metrics = config.metrics ? { metrics: { registry: new Registry(), answered: () => undefined } } : {};
  const listener = createApp({ config, store: NO_STORE, log: createLogger('silent'), drain: { draining: false }, ...metrics });
  return listener.served.map((operation) => operation.replace(/:([A-Za-z0-9_]+)/g, '{$1}'));
}

/** Validates answers against one document and remembers which status of which operation was seen. */
export class AnswerChecker {
  readonly #document: OpenApiDocument;
  readonly #ajv: Ajv2020;
  readonly #compiled = new Map<string, ValidateFunction>();
  /** `GET /products/{id} 200` for every answer checked. */
  readonly seen = new Set<string>();

  constructor(document: OpenApiDocument) {
    this.#document = document;
    this.#ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
    // The components under their document's own pointers, so `#/components/schemas/X` resolves.
    this.#ajv.addSchema({ $id: 'openapi:doc', components: document.components }, 'openapi:doc');
  }

  /** Asserts the answer is documented for this operation and matches its schema. */
  check(t: ExecutionContext, method: string, path: string, response: ApiResponse): void {
    const operation = this.#document.paths[path]?.[method.toLowerCase()];
    if (operation === undefined) {
      t.fail(`${method} ${path} is not documented`);
      return;
    }
    const where = `${method} ${path} ${response.status}`;
    const documented = operation.responses[String(response.status)];
    if (documented === undefined) {
      t.fail(`${where} is not documented (${response.text.slice(0, 200)})`);
      return;
    }
    this.seen.add(where);
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (response.text === '') {
      t.true(documented.content === undefined || response.status === 200, `${where}: documented with a body, answered none`);
      return;
    }
    const media = documented.content?.[type];
    if (media === undefined) {
      t.fail(`${where}: ${type} is not documented (${Object.keys(documented.content ?? {}).join(', ')})`);
      return;
    }
    if (type !== 'application/json') return;
    const key = `${where} ${type}`;
    let validate = this.#compiled.get(key);
    if (validate === undefined) {
      validate = this.#ajv.compile(rewriteRefs(media.schema));
      this.#compiled.set(key, validate);
    }
    t.true(validate(response.body), `${where}: ${this.#ajv.errorsText(validate.errors)} in ${response.text.slice(0, 300)}`);
  }
}

/** `#/components/...` points into the document added as `openapi:doc`. */
function rewriteRefs(schema: unknown): Record<string, unknown> {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `openapi:doc${value}` : visit(value)]));
  };
  return visit(schema) as Record<string, unknown>;
}

/**
 * Sends a request, asserts its status, and checks the answer against the
 * document: `template` is the documented path (`/products/{id}`), `path` the
 * one requested.
 */
export function requester(t: ExecutionContext, service: ServiceUnderTest, checker: AnswerChecker) {
  return async (expected: number, method: string, template: string, path: string, body?: RequestBody, headers: Readonly<Record<string, string>> = {}): Promise<ApiResponse> => {
    const response = await call(service, method, path, body, headers);
    t.is(response.status, expected, `${method} ${path}: ${response.text.slice(0, 200)}`);
    checker.check(t, method, template, response);
    return response;
  };
}

/** Every documented success (2xx) answer of every operation that no check has seen. */
export function unseenSuccesses(document: OpenApiDocument, checker: AnswerChecker): string[] {
  const unseen: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const status of Object.keys(operation.responses)) {
        const where = `${method.toUpperCase()} ${path} ${status}`;
        if (status.startsWith('2') && !checker.seen.has(where)) unseen.push(where);
      }
    }
  }
  return unseen;
}
