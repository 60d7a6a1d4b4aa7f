/**
 * The instances of bench/cluster/cluster.ts: the service on one DATABASE_URL, each on
 * a port of its own that it advertises (CLUSTER_URL), waited for until its
 * /health says the role it was started for.
 */
import { CLUSTER_SECRET, type BenchPostgres } from '../harness/bench-postgres.js';
import { freePort } from '../harness/free-port.js';
import type { Case } from '../journal/journal-cases.js';
import type { Placement } from '../harness/pinning.js';
import { SERVERS, startServer, type RunningServer, type ServerDefinition } from '../harness/servers.js';

export interface ClusterHealth {
  readonly role: string;
  readonly appliedSeq: number;
}

export async function health(url: string): Promise<ClusterHealth | undefined> {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) });
    return (await response.json()) as ClusterHealth;
  } catch {
    return undefined;
  }
}

export async function until(what: string, withinMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** One instance of the service on `databaseUrl`, on a port of its own that it advertises. */
export async function startMember(base: ServerDefinition, databaseUrl: string, port: number, placement: Placement, role: 'writer' | 'follower', leaseSeconds?: number): Promise<RunningServer> {
  const definition: ServerDefinition = {
    ...base,
    name: `${base.name}-${role}`,
    args: ['dist/main.js', '--port', String(port)],
    env: { ...base.env, DATABASE_URL: databaseUrl, CLUSTER_URL: `http://127.0.0.1:${port}`, CLUSTER_SECRET, ...(leaseSeconds === undefined ? {} : { LEASE_SECONDS: String(leaseSeconds) }) },
  };
  const server = await startServer(definition, placement);
  await until(`${definition.name} on :${port} to be the ${role}`, 20_000, async () => (await health(server.url))?.role === role);
  return server;
}

export interface Cluster {
  readonly writer: RunningServer;
  readonly followers: readonly RunningServer[];
  stop(): Promise<void>;
}

/** Runs `work` on a fresh cluster and stops it; a failure carries what the instances printed (their log lines and stderr). */
export async function withCluster<T>(testCase: Case, followers: number, postgres: BenchPostgres, placement: Placement, work: (cluster: Cluster) => Promise<T>): Promise<T> {
  const cluster = await startCluster(testCase, followers, postgres, placement);
  try {
    return await work(cluster);
  } catch (error) {
    const printed = [cluster.writer, ...cluster.followers].map((member) => `${member.definition.name} ${member.url}: ${`${member.stdout()}${member.stderr()}`.trim().slice(-2_000)}`).join('\n');
    throw new Error(`${(error as Error).message}\n${printed}`, { cause: error });
  } finally {
    await cluster.stop();
  }
}

/** A writer (pinned to the server core) and `followers` followers (on the harness's core) on a fresh database. */
async function startCluster(testCase: Case, followers: number, postgres: BenchPostgres, placement: Placement): Promise<Cluster> {
  const base = SERVERS.find((server) => server.name === testCase.server) as ServerDefinition;
  const databaseUrl = await postgres.freshDatabase();
  // The default lease (LEASE_SECONDS, 5 s): a loaded machine is what these windows are.
  const writer = await startMember(base, databaseUrl, await freePort(), placement, 'writer');
  const started: RunningServer[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all([writer, ...started].map((server) => server.stop()));
  };
  try {
    for (let index = 0; index < followers; index++) started.push(await startMember(base, databaseUrl, await freePort(), 'unpinned', 'follower'));
  } catch (error) {
    await stop();
    throw error;
  }
  return { writer, followers: started, stop };
}
