import { routesOf, type ServiceRoute } from '../auth/identity.js';
import { errorReply, jsonReply, textReply, type Reply } from '../http/reply.js';
import { jsonAnswer, type AnswerDoc } from '../http/route-doc.js';
import type { OpenApiErrorCode } from './openapi-errors.js';
import { DOCS_CONTENT_SECURITY_POLICY, loadDocsPage } from './docs-page.js';
import { openApiDocument, type DocumentParts } from './openapi-document.js';

export interface ApiReferenceSettings {
  readonly basePath: string;
  /** GET /docs and its files, besides GET /openapi.json. */
  readonly docs: boolean;
}

export interface ApiReference {
  /** GET /openapi.json, and /docs with its files when the page is on: join them to the service's routes. */
  readonly routes: readonly ServiceRoute<never, unknown, string, unknown>[];
  /**
   * Gives the final route list (these routes included), once at start-up. The document is made
   * from it at the first GET /openapi.json and kept: a start (and every test's service) that is
   * never asked for it does not pay for it.
   */
  describe(parts: DocumentParts): void;
}

const route = routesOf<never>();
const HTML: AnswerDoc = { kind: 'text', contentTypes: ['text/html'] };
const FILES: AnswerDoc = { kind: 'text', contentTypes: ['text/css', 'text/javascript'] };
const NOSNIFF = ['x-content-type-options', 'nosniff'];
const NOT_DESCRIBED = new Error('the API reference was served before it was described');

/**
 * GET /openapi.json (OPENAPI=0 turns it off, and the page with it) and GET
 * /docs, Swagger UI reading it (DOCS=0 turns the page off). Both are routes
 * like the others: under BASE_PATH, protectable with PROTECT.
 */
export function apiReference({ basePath, docs }: ApiReferenceSettings): ApiReference {
  let described: DocumentParts | undefined;
  let document: Reply | undefined;
  const specification = route({
    method: 'GET',
    path: '/openapi.json',
    summary: 'This document: the OpenAPI 3.1 description of the service as configured',
    doc: { answers: { 200: jsonAnswer({ type: 'object', description: 'An OpenAPI 3.1 document' }) } },
    action: {
      handle: () => {
        if (described === undefined) throw NOT_DESCRIBED;
        document ??= jsonReply(200, JSON.stringify(openApiDocument(described)));
        return document;
      },
    },
  });
  const routes = [specification];
  if (docs) {
    const page = loadDocsPage(basePath);
    const html = textReply(200, 'text/html; charset=utf-8', page.html, ['content-security-policy', DOCS_CONTENT_SECURITY_POLICY, 'cache-control', 'no-cache', ...NOSNIFF]);
    let files: Promise<ReadonlyMap<string, Reply>> | undefined;
    // Read at the first file asked for; if swagger-ui-dist cannot be read, asking for a file is a 500.
    const filesRead = (): Promise<ReadonlyMap<string, Reply>> =>
      (files ??= page.files().then((read) => new Map([...read].map(([name, file]) => [name, textReply(200, file.contentType, file.body, ['cache-control', 'public, max-age=3600', ...NOSNIFF])]))));
    const missing = errorReply('DOCS_FILE_NOT_FOUND' satisfies OpenApiErrorCode);
    routes.push(
      route({
        method: 'GET',
        path: '/docs',
        summary: 'The interactive API reference (Swagger UI), reading /openapi.json',
        doc: { answers: { 200: HTML } },
        action: { handle: () => html },
      }),
      route({
        method: 'GET',
        path: '/docs/:file',
        summary: "A file of the reference page: its script, its initializer and its style sheet",
        doc: { answers: { 200: FILES }, errors: ['DOCS_FILE_NOT_FOUND'] },
        action: { handle: async ({ params }) => (await filesRead()).get(params.file ?? '') ?? missing },
      }),
    );
  }
  return {
    routes,
    describe(parts) {
      described = parts;
    },
  };
}
