/**
 * Issue 20's price list: what each part of the service costs per request.
 *
 *   node --import tsx bench/http/feature-costs.ts [--duration 10] [--warmup 2]
 *     [--connections 100] [--unpinned] [--write]
 *
 * Nothing is switched off (the issue forbids it, and a feature switched off
 * changes what the JIT makes of the rest): the service is built by
 * `npm run build -- --sourcemap` (dist/ with a .map beside each file; the
 * next plain build removes them), run pinned as in the main run under
 * V8's sampling profiler (`--cpu-prof`, both threads), and scenarios a, e and
 * f are measured as usual. Each sample of the profile is charged to the part
 * of the service whose code is on its stack, the innermost such frame
 * winning: a frame of ours is mapped back to its source file, a library's by
 * its package; Node's own work (the HTTP parser, writeHead, the socket's
 * writes) is charged to the part that asked for it only when that part is
 * ours, otherwise to "Node's HTTP server". Start-up samples (module loading)
 * are left out. A part's µs per request is its share of the profiled CPU
 * times the window's CPU per request measured from /proc. The profiler costs
 * some CPU of its own (the CPU per request is higher than in the main run),
 * so read the shares and the order, not the last microsecond.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure } from '../harness/load.js';
import { choosePlacement, describePlacement, reExecOnLoadCore } from '../harness/pinning.js';
import { describeMachine } from '../harness/proc-stats.js';
import { fixed, table } from '../harness/report-format.js';
import { SCENARIOS, seededRandom } from './scenarios.js';
import { readScriptOptions } from '../harness/script-options.js';
import { SERVERS, startServer, type ServerDefinition } from '../harness/servers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RESULTS = join(ROOT, 'bench', 'RESULTS.md');
const DIST = join(ROOT, 'dist');
const SCENARIO_IDS = ['a', 'e', 'f'] as const;

const read = readScriptOptions(
  process.argv.slice(2),
  {
    '--duration': { fallback: 10, min: 1, unit: 'S' },
    '--warmup': { fallback: 2, min: 1, unit: 'S' },
    '--connections': { fallback: 100, min: 1, unit: 'N' },
  },
  ['--unpinned', '--write'],
);
const options = { duration: read.count('--duration'), warmup: read.count('--warmup'), connections: read.count('--connections'), unpinned: read.flag('--unpinned'), write: read.flag('--write') };

const WORKER = 'the store worker (all its work)';

/** The parts a sample is charged to, by the source file of ours (a path under the repository) or the package it is in. */
const PARTS: readonly (readonly [part: string, test: (source: string) => boolean])[] = [
  ['request id, client address (exchange)', (source) => /^src\/http\/(exchange|client-address|forwarded-header)\.ts$/.test(source)],
  ['metrics (prom-client and the request tally)', (source) => source.startsWith('src/metrics/') || source === 'prom-client'],
  ['access log (pino)', (source) => source === 'src/http/access-log.ts' || source.startsWith('src/log/') || source.startsWith('pino')],
  ['ETags and conditional requests', (source) => /^src\/http\/(digest-tags|conditions)\.ts$/.test(source)],
  ['routing (find-my-way and the router)', (source) => source === 'find-my-way' || source === 'src/http/router.ts'],
  ['request body (read and JSON parse)', (source) => source === 'src/http/request-body.ts' || source === 'src/http/json-values.ts'],
  ['route runner (stages, validation)', (source) => /^src\/http\/(route-runner|route|reply|path-ids|idempotency-key)\.ts$/.test(source) || source.startsWith('src/products/')],
  ['store hop (the front\'s side: batches, the port)', (source) => source.startsWith('src/store/')],
  ['writing the answer (headers, writeHead, end)', (source) => source === 'src/http/response-writer.ts'],
  ['the server\'s request handler', (source) => /^src\/http\/(server|drain|cors)\.ts$/.test(source)],
  [WORKER, (source) => source.startsWith('workers/')],
];
const OTHER_OURS = 'other service code and libraries';
const NODE = "Node's HTTP server and sockets (no frame of ours on the stack)";
const GC = 'garbage collection';
const PROGRAM = 'V8 and native work outside any JavaScript frame';
const STARTUP = 'start-up';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
}

/** Source maps of the profiled build, by file URL. */
const maps = new Map<string, SourceMap | undefined>();
function sourceOf(url: string, line: number, column: number): string | undefined {
  if (!url.startsWith('file://')) return undefined;
  const path = fileURLToPath(url);
  const nodeModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (nodeModules !== null) return nodeModules[1];
  if (!path.startsWith(DIST)) return undefined;
  if (!maps.has(url)) {
    let map: SourceMap | undefined;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')) as SourceMapPayload);
    } catch {
      map = undefined;
    }
    maps.set(url, map);
  }
  const entry = maps.get(url)?.findEntry(line, column);
  if (entry === undefined || !('originalSource' in entry)) return undefined;
  // esbuild writes sources relative to the map: ../src/http/exchange.ts from dist.
  return relative(ROOT, join(DIST, entry.originalSource));
}

function partOf(source: string): string {
  return PARTS.find(([, test]) => test(source))?.[0] ?? OTHER_OURS;
}

const isStartUp = (frame: ProfileNode['callFrame']): boolean => /internal\/modules\/|internal\/bootstrap\//.test(frame.url) || frame.functionName === 'compileSourceTextModule';

/** Busy samples per part, over both threads' profiles. */
function chargeProfiles(dir: string): Map<string, number> {
  const charged = new Map<string, number>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    // The store worker's thread: everything it does is its part, Node's own work included.
    const fallback = profile.nodes.some((node) => node.callFrame.url.endsWith('/store-worker.js')) ? WORKER : NODE;
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    // Each node's part, worked out once.
    const partOfNode = new Map<number, string | undefined>();
    const resolve = (id: number): string | undefined => {
      if (partOfNode.has(id)) return partOfNode.get(id);
      const node = byId.get(id) as ProfileNode;
      const { callFrame } = node;
      let part: string | undefined;
      if (callFrame.functionName === '(idle)') part = 'idle';
      else if (callFrame.functionName === '(root)') part = undefined;
      else if (callFrame.functionName === '(garbage collector)') part = GC;
      else if (callFrame.functionName === '(program)') part = PROGRAM;
      else if (isStartUp(callFrame)) part = STARTUP;
      else {
        const source = sourceOf(callFrame.url, callFrame.lineNumber, callFrame.columnNumber);
        const above = parent.get(id);
        const outer = above === undefined ? undefined : resolve(above);
        // Start-up anywhere above wins; otherwise the innermost frame of ours or of a package.
        part = outer === STARTUP ? STARTUP : source !== undefined ? partOf(source) : outer;
      }
      partOfNode.set(id, part);
      return part;
    };
    // Each sample counts once, whatever the time since the one before: V8
    // takes a sample by signalling the thread, which only answers once it
    // runs, so a thread that waited for the core (two threads pinned to one
    // core, the front having just woken the worker) would otherwise have the
    // whole wait charged to the frame it resumed in.
    for (const id of profile.samples) {
      const part = resolve(id) ?? fallback;
      if (part !== 'idle') charged.set(part, (charged.get(part) ?? 0) + 1);
    }
  }
  return charged;
}

/** The service as `npm run build` makes it, with a source map beside each file. */
function buildWithSourceMaps(): void {
  const built = spawnSync('npm', ['run', 'build', '--', '--sourcemap'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`npm run build -- --sourcemap failed (${built.status ?? built.signal})`);
}

interface Row {
  readonly scenario: string;
  readonly cpuMicrosPerRequest: number;
  readonly requestsPerSecond: number;
  readonly charged: Map<string, number>;
}

async function profileScenario(id: string): Promise<Row> {
  const scenario = SCENARIOS.find((candidate) => candidate.id === id);
  if (scenario?.family !== 'catalogue') throw new Error(`scenario ${id} is not a catalogue scenario`);
  const base = SERVERS.find((server) => server.name === 'catalogue') as ServerDefinition;
  const dir = mkdtempSync(join(tmpdir(), `catalogue-profile-${id}-`));
  const definition: ServerDefinition = { ...base, args: ['--cpu-prof', '--cpu-prof-dir', dir, ...base.args] };
  const server = await startServer(definition, placement);
  let measurement;
  try {
    measurement = await measure(server.url, server.pid, server.headers, scenario.plan(10, seededRandom(1)), { connections: options.connections, duration: options.duration, warmup: options.warmup, requests: undefined, settle: true });
  } finally {
    // A clean stop: the profiles are written as the process exits.
    await server.stop();
  }
  const problems = [...measurement.problems, ...measurement.warnings];
  if (problems.length > 0) console.error(`${id}: ${problems.join('; ')}`);
  const charged = chargeProfiles(dir);
  rmSync(dir, { recursive: true, force: true });
  return { scenario: `${scenario.id} ${scenario.name}`, cpuMicrosPerRequest: measurement.cpuMicrosPerRequest ?? Number.NaN, requestsPerSecond: measurement.requestsPerSecond, charged };
}

const placement = choosePlacement(options.unpinned);
reExecOnLoadCore(placement);
const started = new Date();
const loadAtStart = loadavg()[0] ?? 0;
buildWithSourceMaps();
const rows: Row[] = [];
for (const id of SCENARIO_IDS) {
  rows.push(await profileScenario(id));
  console.error(`${id}: profiled`);
}

const ORDER = [...PARTS.map(([part]) => part), OTHER_OURS, NODE, PROGRAM, GC];
/** Each row's busy samples, start-up left out: the whole its parts are shares of. */
const busy = rows.map((row) => [...row.charged].filter(([name]) => name !== STARTUP).reduce((sum, [, samples]) => sum + samples, 0));
const lines = ORDER.map((part) => [
  part,
  ...rows.flatMap((row, index) => {
    const share = (row.charged.get(part) ?? 0) / (busy[index] ?? Number.NaN);
    return [fixed(share * row.cpuMicrosPerRequest, 1), `${fixed(share * 100, 1)}%`];
  }),
]);
const machine = describeMachine();
const report = [
  '',
  `## The price of each part of a request (issue 20), ${started.toISOString()}`,
  '',
  `\`node --import tsx bench/http/feature-costs.ts --duration ${options.duration} --warmup ${options.warmup} --connections ${options.connections}${options.unpinned ? ' --unpinned' : ''}\``,
  `Node ${process.version}, ${machine.cores} × ${machine.cpuModel}, ${describePlacement(placement)}; load average ${fixed(loadAtStart, 2)} at the start, ${fixed(loadavg()[0], 2)} at the end.`,
  `The catalogue server as every bench runs it (bench/harness/servers.ts: metrics, ETags and request ids on, as shipped; ACCESS_LOG off, as shipped; LOG_LEVEL=warn) built with source maps (\`npm run build -- --sourcemap\`) and run under \`--cpu-prof\`; ${options.connections} connections, ${options.warmup} s of warm-up, ${options.duration} s measured per scenario. Each profiled sample is charged to the innermost part of ours (by source file) or library (by package) on its stack; Node's own work counts for the part of ours that called it. µs per request = the part's share of both threads' busy samples (start-up left out; a sample counts once, see the script) × the window's CPU per request (/proc, both threads, the profiler's own cost included: ${rows.map((row) => `${row.scenario.split(' ')[0]} ${fixed(row.cpuMicrosPerRequest, 1)} µs at ${Math.round(row.requestsPerSecond).toLocaleString('en')} req/s`).join(', ')}).`,
  '',
  table(['part', ...rows.flatMap((row) => [`${row.scenario} µs/request`, 'share'])], lines),
  '',
].join('\n');
console.log(report);
if (options.write) appendFileSync(RESULTS, report);
