/**
 * The servers of a run: one named entry each (how to start it, its
 * environment, how to tell it is ready, and what a client must send to be let
 * in), so a variant is one more row. Each is a child process on a free port,
 * pinned to the server core unless the run is unpinned, started fresh for
 * every scenario.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverCommand, type Placement } from './pinning.js';
import { SETTING_NAMES } from '../../src/config/settings.js';
import { processName } from './proc-stats.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type Headers = Readonly<Record<string, string>>;

/** Which routes a server answers, so which scenarios it runs: the catalogue's (a–g) or the marketplace's search (h, j...). */
export type Family = 'catalogue' | 'marketplace';

export interface ServerDefinition {
  /** The name in every table: `catalogue`, `fastify`... */
  readonly name: string;
  /** Targets are judged for the service's rows; the peers are the yardstick. */
  readonly role: 'service' | 'peer';
  readonly family: Family;
  /** Node arguments, relative to the repository root. */
  readonly args: readonly string[];
  readonly env: Headers;
  /** The line a server prints once it accepts connections; group 1 is its URL. */
  readonly ready: RegExp;
  /** Headers every request must carry, worked out once the server is up (a Bearer token). */
  readonly credentials?: (url: string) => Promise<Headers>;
  /**
   * Headers a product write needs (an administrator's x-api-key): only the
   * seeding sends them, the measured requests are an anonymous shopper's.
   */
  readonly adminHeaders?: Headers;
  /** The command-line flag that adds this server to the run; without one it always runs. */
  readonly flag?: string;
}

const LISTENING = /listening on (http:\/\/\S+)/;

/** Log settings that would make one server write more than another are pinned down. */
const QUIET = { LOG_LEVEL: 'warn', NODE_ENV: 'production' } as const;

/** Settings a developer's shell might have exported: never leak them into a server. */

const BENCH_USER = { username: 'bench', password: 'bench' } as const;

/** POST /login as the bench user; the token goes on every request. */
async function bearerLogin(url: string): Promise<Headers> {
  const response = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_USER),
    signal: AbortSignal.timeout(5_000),
  });
  const body = (await response.json().catch(() => undefined)) as { token?: unknown } | undefined;
  if (response.status !== 200 || typeof body?.token !== 'string') {
    throw new Error(`POST /login answered ${response.status} without a token: is /login implemented and PROTECT supported?`);
  }
  return { authorization: `Bearer ${body.token}` };
}

/**
 * The administrators' key of the marketplace servers, new for every run (a
 * fixed one would be a credential in the repository): both take it in
 * API_KEYS, and the seeding sends it.
 */
const ADMIN_KEY = randomBytes(18).toString('base64url');
const ADMIN_KEYS = { API_KEYS: `bench=${ADMIN_KEY}` } as const;
const ADMIN_HEADERS: Headers = { 'x-api-key': ADMIN_KEY };

export const SERVERS: readonly ServerDefinition[] = [
  { name: 'catalogue', role: 'service', family: 'catalogue', args: ['dist/main.js', '--port', '0'], env: QUIET, ready: LISTENING },
  {
    // The same service with a Bearer rule on the by-id route: the verifier's
    // cost per request shows up in scenarios a, d and g. Needs /login, so it
    // only runs when asked for.
    name: 'catalogue+bearer',
    role: 'service',
    family: 'catalogue',
    args: ['dist/main.js', '--port', '0'],
    env: { ...QUIET, PROTECT: 'GET /products/:id=bearer', AUTH_USERS: `${BENCH_USER.username}:${BENCH_USER.password}` },
    ready: LISTENING,
    credentials: bearerLogin,
    flag: '--with-bearer',
  },
  { name: 'fastify', role: 'peer', family: 'catalogue', args: ['bench/peers/fastify.js'], env: { ...QUIET, PORT: '0' }, ready: LISTENING },
  { name: 'express', role: 'peer', family: 'catalogue', args: ['bench/peers/express.js'], env: { ...QUIET, PORT: '0' }, ready: LISTENING },
  { name: 'raw-node', role: 'peer', family: 'catalogue', args: ['bench/peers/raw-node.js'], env: { ...QUIET, PORT: '0' }, ready: LISTENING },
  // The marketplace's search (CONTRACT.md section 7): h, h10k, h1M and j.
  {
    name: 'catalogue-marketplace',
    role: 'service',
    family: 'marketplace',
    args: ['dist/main.js', '--port', '0'],
    // Scenario k registers and logs in its customers before the window: the
    // cheapest hash the service allows, and no registration throttle.
    env: { ...QUIET, MARKETPLACE: '1', ...ADMIN_KEYS, PASSWORD_HASH_COST: '10', REGISTER_MAX_PER_HOUR: '0' },
    ready: LISTENING,
    adminHeaders: ADMIN_HEADERS,
  },
  {
    name: 'fastify-marketplace',
    role: 'peer',
    family: 'marketplace',
    args: ['bench/peers/fastify-marketplace.js'],
    env: { ...QUIET, PORT: '0', ...ADMIN_KEYS },
    ready: LISTENING,
    adminHeaders: ADMIN_HEADERS,
  },
];

/** The name ratios are taken against, and the targets judged by. */
export const BASELINE = 'fastify';
/** The marketplace scenarios' baseline: Fastify filtering, sorting and slicing an array. */
export const MARKETPLACE_BASELINE = 'fastify-marketplace';
/** Bare node:http, no framework: the ceiling the service's ratios are also shown against. */
export const CEILING = 'raw-node';

export interface RunningServer {
  readonly definition: ServerDefinition;
  readonly url: string;
  readonly pid: number;
  /** Credentials to send with every request (empty when the server needs none). */
  readonly headers: Headers;
  stderr(): string;
  /** The last 64 KiB it printed on stdout (its log lines: pino writes there). */
  stdout(): string;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 15_000;
const STOP_GRACE_MS = 5_000;

/** The machine's environment without any of the service's settings a developer may have exported. */
function childEnv(extra: Headers): NodeJS.ProcessEnv {
  const settings: ReadonlySet<string> = new Set(SETTING_NAMES);
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !settings.has(name))), ...extra };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

export async function startServer(definition: ServerDefinition, placement: Placement): Promise<RunningServer> {
  const [command, ...args] = serverCommand([process.execPath, ...definition.args], placement) as [string, ...string[]];
  const child = spawn(command, args, { cwd: ROOT, env: childEnv(definition.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stdoutTail = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (stdout.length < 65_536) stdout += chunk;
    stdoutTail = (stdoutTail + chunk).slice(-65_536);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-65_536)));

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready in ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
      const onData = (): void => {
        const match = definition.ready.exec(stdout);
        if (match?.[1] === undefined) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(match[1]);
      };
      child.stdout.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited (${code ?? signal}) before it was ready`));
      });
      child.once('error', reject);
    });
    const pid = child.pid as number;
    // taskset execs the server in place, so the pid is the server's own; the
    // CPU figures would be wrong if it were still taskset.
    const name = processName(pid);
    if (name !== undefined && name !== 'node') throw new Error(`pid ${pid} is "${name}", not node`);
    const headers = definition.credentials === undefined ? {} : await definition.credentials(url);
    return { definition, url, pid, headers, stderr: () => stderr, stdout: () => stdoutTail, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw new Error(`${definition.name}: ${(error as Error).message}; stderr: ${stderr.trim().slice(-2_000)}`, { cause: error });
  }
}

/** The option that adds the baseline servers; its value is another build's dist directory. */
export const BASELINE_DIST = '--baseline-dist';

/**
 * Another build of the service beside this one, for an A/B comparison in one
 * run: every service entry started from `dist/main.js`, again, as
 * `<name>-baseline`, its `main.js` (and so its store worker) taken from `dir`.
 * Build the other commit apart first (`git worktree add /tmp/base <commit>`,
 * then `npm ci && npm run build` there) and pass `--baseline-dist /tmp/base/dist`.
 * An entry that needs a flag of its own (`catalogue+bearer`) needs it here too.
 */
export function baselineServers(dir: string): ServerDefinition[] {
  const main = resolve(dir, 'main.js');
  return SERVERS.filter((server) => server.role === 'service' && server.args[0] === 'dist/main.js').map((server) => ({
    ...server,
    name: `${server.name}-baseline`,
    args: [main, ...server.args.slice(1)],
    flag: server.flag ?? BASELINE_DIST,
  }));
}

/** Every server a run may name: the table, and the baselines' names (they run only with --baseline-dist). */
export const KNOWN_SERVERS: readonly ServerDefinition[] = [...SERVERS, ...baselineServers('dist')];

/** The servers for this run: every entry without a flag, the flagged ones asked for, and the baselines when a baseline build is given. */
export function selectServers(flags: ReadonlySet<string>, only: readonly string[] | undefined, baselineDist?: string): ServerDefinition[] {
  const candidates = baselineDist === undefined ? SERVERS : [...SERVERS, ...baselineServers(baselineDist)];
  return candidates.filter((server) => (server.flag === undefined || flags.has(server.flag)) && (only === undefined || only.includes(server.name)));
}
