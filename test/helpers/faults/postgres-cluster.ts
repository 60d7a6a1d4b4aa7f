/**
 * Instances of the built service on a test's PostgreSQL database
 * (postgres-server.ts), each on a port it binds itself (PORT=0) and
 * advertises to the others (no CLUSTER_URL: the service records the port it
 * got), sharing one CLUSTER_SECRET.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { ExecutionContext } from 'ava';
import { MAIN, PROCESS_CEILING_MS, childEnv, type RunningService } from '../service/service.js';

/** The secret the test instances share (CLUSTER_SECRET): never to be seen in their output. */
export const TEST_CLUSTER_SECRET = 'test-cluster-secret-of-at-least-32-bytes';

/**
 * LEASE_SECONDS for a test in which no writer is meant to be replaced: a lease no test waits for
 * (a clean stop gives it up at once). The 2 s of the failover tests can run out on a machine
 * loaded enough to starve the renewal, and a follower then becomes the writer mid-test.
 */
export const STEADY_LEASE_SECONDS = '30';

/** An instance of the built service: `ready` resolves with its URL once it listens. */
export interface Instance {
  readonly child: ChildProcess;
  readonly ready: Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** An instance on DATABASE_URL, on the port it binds (PORT=0), which it advertises itself, with the shared secret; `env` may override either. */
export function startClusterInstance(t: ExecutionContext, env: Readonly<Record<string, string>>): Instance {
  return startInstance(t, { PORT: '0', CLUSTER_SECRET: TEST_CLUSTER_SECRET, ...env });
}

export function startInstance(t: ExecutionContext, env: Readonly<Record<string, string>>): Instance {
  const child = spawn(process.execPath, [MAIN, '--port', env.PORT ?? '0'], { env: childEnv({ LOG_LEVEL: 'info', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'close').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (): void => {
      const url = /listening on (\S+)/.exec(output)?.[1];
      if (url !== undefined) resolve(url);
    };
    child.stdout.on('data', onData);
    void exited.then(({ code, signal }) => reject(new Error(`the instance ended (${code ?? signal}) before listening: ${output.slice(-1500)}`)));
  });
  ready.catch(() => undefined);
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const ceiling = setTimeout(() => child.kill('SIGKILL'), PROCESS_CEILING_MS * 2);
  void exited.then(() => clearTimeout(ceiling));
  t.teardown(async () => {
    // A stopped process would never end on SIGKILL's way in: wake it first.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGCONT');
    await stop('SIGKILL');
  });
  return { child, ready, exited, output: () => output, stop };
}

export interface ClusterHealth {
  readonly status: 'ok';
  readonly role: 'writer' | 'follower';
  readonly appliedSeq: number;
  readonly lag: { readonly commands: number; readonly seconds: number };
  readonly database: 'reachable' | 'unreachable';
  readonly stepDowns: number;
  readonly reloads: number;
}

/** GET /health of a listening instance. */
export async function healthOf(url: string): Promise<ClusterHealth> {
  const response = await fetch(`${url}/health`);
  if (response.status !== 200) throw new Error(`GET /health answered ${response.status}`);
  return (await response.json()) as ClusterHealth;
}

/** Resolves once `url` says it has `role` (polled every 20 ms); throws after `withinMs`. */
export async function untilRole(url: string, role: ClusterHealth['role'], withinMs = PROCESS_CEILING_MS): Promise<void> {
  const until = performance.now() + withinMs;
  for (;;) {
    const health = await healthOf(url).catch(() => undefined);
    if (health?.role === role) return;
    if (performance.now() > until) throw new Error(`${url} is not the ${role} after ${withinMs} ms (${JSON.stringify(health)})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An instance as the product helpers and the crash workloads take it, once it listens. */
export async function serving(instance: Instance): Promise<RunningService> {
  const url = await instance.ready;
  return { url, port: Number(new URL(url).port), child: instance.child, stdout: () => instance.output(), stderr: () => instance.output(), stop: (signal) => instance.stop(signal) };
}
