/**
 * The benchmark must not rot: its smoke mode (50 requests per case, small
 * collections, servers handed on between cases, RESULTS.md untouched) runs
 * every scenario against every server, the raw-node ceiling included, and
 * fails when a server answers a wrong body or the service an unexpected
 * status.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { SCENARIOS, serversFor } from '../../bench/http/scenarios.js';
import { selectServers } from '../../bench/harness/servers.js';

// The repo root is AVA's working directory for test processes, whether this
// file runs from test/ through tsx or as build/test/ (npm test's compiled copy).
const ROOT = process.cwd();
// The harness beside this file: build/bench/http/run.js for the compiled copy
// (`npm run build:tests` compiles bench/ too and copies its plain .js peers
// and probe clients), which spares it the TypeScript loader in the harness
// and in its re-execution on the load core; bench/http/run.ts through tsx otherwise.
const COMPILED = import.meta.url.endsWith('.js');
const HARNESS = fileURLToPath(new URL(`../../bench/http/run.${COMPILED ? 'js' : 'ts'}`, import.meta.url));
// A ceiling for a hung run, not a speed target: the smoke takes about 15 s
// on this 2-core machine while other work runs, and a loaded machine must
// slow it, not fail it.
const LIMIT_MS = 180_000;

test('npm run bench -- --smoke runs every scenario against every server and exits 0', async (t) => {
  t.timeout(LIMIT_MS + 10_000);
  const child = spawn(process.execPath, [...(COMPILED ? [] : ['--import', 'tsx']), HARNESS, '--smoke'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(killer);

  t.is(code, 0, `bench --smoke failed:\n${stderr.slice(-4_000)}`);
  const rows = stdout.split('\n').filter((line) => line.startsWith('| '));
  // Each scenario runs on the servers that answer its routes (its family; the checkout and a304, the service alone).
  for (const scenario of SCENARIOS) {
    for (const server of serversFor(scenario, selectServers(new Set(), undefined))) {
      const row = rows.find((line) => line.startsWith(`| ${scenario.id} ${scenario.name}: `) && line.includes(` | ${server.name} | `));
      t.truthy(row, `no row for scenario ${scenario.id} ${scenario.name} and server ${server.name}`);
      t.notRegex(row ?? '', /INVALID|FAILED/, `row for ${scenario.id} and ${server.name} is not clean: ${row ?? ''}`);
    }
  }
  t.regex(stdout, /req\/s ÷ raw-node \| CPU ÷ fastify \| CPU ÷ raw-node/, 'no ratios against the raw-node ceiling');
  t.regex(stdout, /- Pinning: \*\*(pinned|not pinned)\*\*/, 'the report does not say how the servers were placed');
  t.regex(stdout, /## Marketplace search/);
  t.regex(stdout, /## Checkout \(the service alone\)/);
  t.regex(stdout, /## Scaling/);
  t.regex(stdout, /Node v\d+/);
  // The versions are read where the harness resolves its packages, from bench/ as from build/bench/.
  t.regex(stdout, /autocannon \d+\.\d+\.\d+, fastify \d+\.\d+\.\d+, express \d+\.\d+\.\d+/);
});
