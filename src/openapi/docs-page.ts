import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The interactive reference page: Swagger UI from the swagger-ui-dist
 * package, served by the service itself (no CDN, works offline). Its files
 * are read from node_modules once, when the first of them is asked for
 * (dist/main.js is a bundle that leaves packages external, so they are found
 * at run time from here): a start, and the many that never serve /docs, does
 * not read 1.7 MB; the first visitor waits for the read (a few ms). They are
 * kept and sent as bytes: decoding the
 * 1.7 MB script into a string cost ~40 ms of every start (and its memory
 * twice over), and Node would encode it again for every answer.
 * The page has no inline script (the initializer is a file of its own), so
 * its Content-Security-Policy allows scripts from the service only.
 */

export interface DocsFile {
  readonly contentType: string;
  /** The file's bytes, or a text made here. */
  readonly body: string | readonly Uint8Array[];
}

export interface DocsPage {
  readonly html: string;
  /** The page's files by name, under /docs/, read at the first call and kept; rejects if swagger-ui-dist's files cannot be read. */
  files(): Promise<ReadonlyMap<string, DocsFile>>;
}

/**
 * Scripts and styles from the service only, the specification fetched from
 * it. Swagger UI sets style attributes as it renders, hence inline styles
 * (never inline scripts); its icons are data: images.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** Where swagger-ui-dist is installed. */
function swaggerUiFolder(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

function initializer(specificationUrl: string): string {
  // validatorUrl null: the page must not send the document to swagger.io's validator.
  return `'use strict';
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(specificationUrl)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;
}

/** Begins reading the page's files; `basePath` is BASE_PATH ('' or '/api'). */
export function loadDocsPage(basePath: string): DocsPage {
  const folder = swaggerUiFolder();
  const read = async (name: string): Promise<readonly Uint8Array[]> => [await readFile(join(folder, name))];
  const at = `${basePath}/docs`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>catalogue API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${at}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${at}/swagger-ui-bundle.js"></script>
<script src="${at}/docs-init.js"></script>
</body>
</html>
`;
  let files: Promise<ReadonlyMap<string, DocsFile>> | undefined;
  const readFiles = (): Promise<ReadonlyMap<string, DocsFile>> =>
    Promise.all([read('swagger-ui.css'), read('swagger-ui-bundle.js')]).then(
      ([css, bundle]) =>
        new Map([
          ['swagger-ui.css', { contentType: CSS, body: css }],
          ['swagger-ui-bundle.js', { contentType: JS, body: bundle }],
          ['docs-init.js', { contentType: JS, body: initializer(`${basePath}/openapi.json`) }],
        ]),
    );
  return { html, files: () => (files ??= readFiles()) };
}
