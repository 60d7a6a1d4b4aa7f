/**
 * GET /docs: Swagger UI served by the service itself, offline: the HTML with
 * a strict Content-Security-Policy (scripts from the service only, no
 * inline script), its files with their content types, no outside URL,
 * BASE_PATH respected; DOCS=0 and OPENAPI=0 turn it off; PROTECT guards it.
 */
import test from 'ava';
import { call, ownService } from '../../helpers/api/product-api.js';
import { apiKeyAuth } from '../../helpers/api/auth-api.js';

test('the page and its files load from the service, under BASE_PATH, with a strict CSP and no outside URL', async (t) => {
  const service = await ownService(t, { env: { BASE_PATH: '/api' } });
  const page = await call(service, 'GET', '/docs');
  t.is(page.status, 200);
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  const policy = page.headers.get('content-security-policy') ?? '';
  t.regex(policy, /default-src 'none'/);
  t.regex(policy, /script-src 'self'(;|$)/);
  t.notRegex(policy, /script-src[^;]*unsafe/);
  t.is(page.headers.get('x-content-type-options'), 'nosniff');
  t.notRegex(page.text, /https?:\/\//);
  t.notRegex(page.text, /<script>|<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');

  const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string).filter((source) => !source.startsWith('data:'));
  t.deepEqual(sources.sort(), ['/api/docs/docs-init.js', '/api/docs/swagger-ui-bundle.js', '/api/docs/swagger-ui.css']);
  const types: Readonly<Record<string, RegExp>> = { js: /^text\/javascript/, css: /^text\/css/ };
  for (const source of sources) {
    const file = await fetch(new URL(source, service.url));
    t.is(file.status, 200, source);
    t.regex(file.headers.get('content-type') ?? '', types[source.split('.').pop() ?? ''] ?? /none/, source);
    t.true((await file.text()).length > 0);
  }
  const init = await call(service, 'GET', '/docs/docs-init.js');
  t.regex(init.text, /url: "\/api\/openapi\.json"/);
  t.regex(init.text, /validatorUrl: null/);
  t.is((await call(service, 'GET', '/docs/swagger-ui.css.map')).status, 404);
  t.is((await call(service, 'GET', '/openapi.json')).status, 200);
});

test('DOCS=0 turns the page off, OPENAPI=0 the document and the page', async (t) => {
  const noPage = await ownService(t, { env: { DOCS: '0' } });
  t.is((await call(noPage, 'GET', '/docs')).status, 404);
  t.is((await call(noPage, 'GET', '/docs/swagger-ui.css')).status, 404);
  t.is((await call(noPage, 'GET', '/openapi.json')).status, 200);
  const none = await ownService(t, { args: ['--openapi', '0'] });
  t.is((await call(none, 'GET', '/docs')).status, 404);
  t.is((await call(none, 'GET', '/openapi.json')).status, 404);
});

test('PROTECT guards the page and the document like any route', async (t) => {
  const service = await ownService(t, { env: { API_KEYS: 'ops=Key-0123456789', PROTECT: 'GET /docs=apikey,GET /openapi.json=apikey' } });
  t.is((await call(service, 'GET', '/docs')).status, 403);
  t.is((await call(service, 'GET', '/openapi.json')).status, 403);
  t.is((await call(service, 'GET', '/docs', undefined, apiKeyAuth('Key-0123456789'))).status, 200);
  t.is((await call(service, 'GET', '/openapi.json', undefined, apiKeyAuth('Key-0123456789'))).status, 200);
});
