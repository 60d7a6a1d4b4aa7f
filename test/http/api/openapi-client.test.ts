/**
 * A TypeScript client generated from the running service's /openapi.json
 * with openapi-typescript (the `paths` types) and openapi-fetch (the
 * runtime client), as docs/api.md shows ("OpenAPI and /docs"): the test generates the types, writes
 * a small client module beside them (in memory), type-checks it with the
 * TypeScript compiler API, runs it against the service and checks what it
 * got; a call with a wrong body type must fail the type check.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import createClient from 'openapi-fetch';
import { ownService } from '../../helpers/api/product-api.js';
import { ADMIN_KEY, MARKETPLACE } from '../../helpers/api/marketplace-api.js';

/** The files live in memory, in a folder of the repository so that `openapi-fetch` resolves from node_modules. */
const FOLDER = join(fileURLToPath(new URL('.', import.meta.url)), 'generated-client');

const CLIENT = `
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export async function run(client: Client<paths>, key: string): Promise<{ name: string; reviews: number; created: number; price: number }> {
  const one = await client.GET('/products/{id}', { params: { path: { id: 1 } } });
  if (one.data === undefined) throw new Error('GET /products/1 failed');
  const created = await client.POST('/products', {
    body: { name: 'Typed kettle', description: 'Made by a generated client', price: 12.5, category: 'kitchen', stock: 3 },
    headers: { 'x-api-key': key },
  });
  if (created.data === undefined) throw new Error('POST /products failed: ' + JSON.stringify(created.error));
  const id: number = created.data.data.id;
  const price: number = created.data.data.price;
  return { name: one.data.data.name, reviews: one.data.data.reviews.length, created: id, price };
}
`;

const WRONG = `
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export async function wrong(client: Client<paths>): Promise<void> {
  await client.POST('/products', { body: { name: 'Kettle', description: 'Steel', price: 'cheap' } });
}
`;

/** Type-checks in-memory files with the compiler API in one program; answers each file's diagnostics as text. */
function typeCheck(files: Readonly<Record<string, string>>): Map<string, string[]> {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: [],
  };
  const virtual = new Map(Object.entries(files).map(([name, text]) => [join(FOLDER, name), text]));
  const base = ts.createCompilerHost(options);
  const host: ts.CompilerHost = {
    ...base,
    directoryExists: (name) => name === FOLDER || (base.directoryExists?.(name) ?? true),
    fileExists: (name) => virtual.has(name) || base.fileExists(name),
    readFile: (name) => virtual.get(name) ?? base.readFile(name),
    getSourceFile: (name, language, ...rest) => {
      const text = virtual.get(name);
      return text === undefined ? base.getSourceFile(name, language, ...rest) : ts.createSourceFile(name, text, language);
    },
  };
  const program = ts.createProgram([...virtual.keys()].filter((name) => !name.endsWith('.d.ts')), options, host);
  const byFile = new Map<string, string[]>(Object.keys(files).map((name) => [name, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const name = diagnostic.file === undefined ? 'schema.d.ts' : diagnostic.file.fileName.slice(FOLDER.length + 1);
    byFile.set(name, [...(byFile.get(name) ?? []), ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')]);
  }
  return byFile;
}

test('a client generated from /openapi.json type-checks, calls the service and gets typed answers; a wrong body fails to type-check', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  const document = (await (await fetch(`${service.url}/openapi.json`)).json()) as object;
  const schema = astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
  t.regex(schema, /"\/products\/\{id\}": \{/);

  const diagnostics = typeCheck({ 'schema.d.ts': schema, 'client.ts': CLIENT, 'wrong.ts': WRONG });
  t.deepEqual(diagnostics.get('client.ts'), []);
  t.deepEqual(diagnostics.get('schema.d.ts'), []);
  const wrong = diagnostics.get('wrong.ts') ?? [];
  t.true(wrong.some((message) => /string.*number|number.*string/s.test(message)), wrong.join('\n'));

  // The client as JavaScript (its imports are types only), run against the service.
  const javascript = ts.transpileModule(CLIENT, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText;
  const module = (await import(`data:text/javascript;base64,${Buffer.from(javascript).toString('base64')}`)) as {
    run: (client: unknown, key: string) => Promise<{ name: string; reviews: number; created: number; price: number }>;
  };
  const result = await module.run(createClient({ baseUrl: service.url }), ADMIN_KEY);
  t.is(typeof result.name, 'string');
  t.is(result.reviews, 0);
  t.is(result.created, 11);
  t.is(result.price, 12.5);
});
