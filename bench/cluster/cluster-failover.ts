/**
 * bench/cluster/cluster.ts's failover rounds: three instances under a light write
 * load through every one of them, the writer killed again and again.
 */
import { createHash } from 'node:crypto';
import type { BenchPostgres } from '../harness/bench-postgres.js';
import { health, startMember, until } from './cluster-members.js';
import { freePort } from '../harness/free-port.js';
import { fixed } from '../harness/report-format.js';
import { SERVERS, type RunningServer, type ServerDefinition } from '../harness/servers.js';

interface Write {
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly status: number;
}

/** Writers POSTing products through every instance in turn until `stop` is set; every answer kept. */
function writeLoad(urls: () => readonly string[], writers: number): { readonly writes: Write[]; stop(): Promise<void> } {
  const writes: Write[] = [];
  let stopping = false;
  const loop = async (index: number): Promise<void> => {
    for (let turn = 0; !stopping; turn++) {
      const list = urls();
      const url = list[(index + turn) % list.length] as string;
      const sentAt = performance.now();
      let status = 0;
      try {
        const response = await fetch(`${url}/products`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `failover ${index}-${turn}`, description: 'bench', price: 1 }),
          signal: AbortSignal.timeout(10_000),
        });
        status = response.status;
        await response.arrayBuffer();
      } catch {
        // No answer (the dead writer's connection, a timeout): status 0.
      }
      writes.push({ sentAt, answeredAt: performance.now(), status });
      if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const loops = Array.from({ length: writers }, (_, index) => loop(index));
  return {
    writes,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

export interface FailoverRound {
  readonly seconds: number;
  readonly refused: number;
}

async function catalogueDigest(url: string): Promise<string> {
  return createHash('sha256').update(await (await fetch(`${url}/products`)).text()).digest('hex');
}

/** `kills` times: the writer SIGKILLed under load, timed to the first write through another instance, then started again as a follower. */
export async function failoverRounds(postgres: BenchPostgres, kills: number, lease: number): Promise<{ rounds: FailoverRound[]; converged: boolean }> {
  const base = SERVERS.find((server) => server.name === 'catalogue') as ServerDefinition;
  // Strict ids: the seed's count + 1 would make concurrent POSTs collide, and the catalogues could not be compared.
  const strict: ServerDefinition = { ...base, env: { ...base.env, STRICT: '1' } };
  const databaseUrl = await postgres.freshDatabase();
  const ports = [await freePort(), await freePort(), await freePort()];
  const members = new Map<number, RunningServer>();
  members.set(ports[0] as number, await startMember(strict, databaseUrl, ports[0] as number, 'unpinned', 'writer', lease));
  for (const port of ports.slice(1)) members.set(port, await startMember(strict, databaseUrl, port, 'unpinned', 'follower', lease));
  try {
    return await killRounds(members, { databaseUrl, strict, kills, lease });
  } finally {
    await Promise.all([...members.values()].map((member) => member.stop()));
  }
}

async function killRounds(
  members: Map<number, RunningServer>,
  { databaseUrl, strict, kills, lease }: { databaseUrl: string; strict: ServerDefinition; kills: number; lease: number },
): Promise<{ rounds: FailoverRound[]; converged: boolean }> {
  const ports = [...members.keys()];
  const load = writeLoad(() => [...members.values()].map((member) => member.url), 12);
  const rounds: FailoverRound[] = [];
  try {
    for (let kill = 1; kill <= kills; kill++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const roles = await Promise.all(ports.map(async (port) => [port, (await health(members.get(port)?.url ?? ''))?.role] as const));
      const writerPort = roles.find(([, role]) => role === 'writer')?.[0];
      if (writerPort === undefined) throw new Error(`kill ${kill}: no instance says it is the writer`);
      const writer = members.get(writerPort) as RunningServer;
      const killedAt = performance.now();
      process.kill(writer.pid, 'SIGKILL');
      members.delete(writerPort);
      await until(`kill ${kill}: a write answered after the kill`, 30_000, () => Promise.resolve(load.writes.some((write) => write.sentAt > killedAt && write.status === 201)));
      const first = Math.min(...load.writes.filter((write) => write.sentAt > killedAt && write.status === 201).map((write) => write.answeredAt));
      const refused = load.writes.filter((write) => write.sentAt > killedAt && write.answeredAt <= first && write.status !== 201).length;
      rounds.push({ seconds: (first - killedAt) / 1000, refused });
      console.error(`kill ${kill}: a write went through ${fixed((first - killedAt) / 1000, 2)} s after the kill (${refused} refused meanwhile)`);
      await writer.stop();
      members.set(writerPort, await startMember(strict, databaseUrl, writerPort, 'unpinned', 'follower', lease));
    }
  } finally {
    await load.stop();
  }
  const urls = [...members.values()].map((member) => member.url);
  await until('the instances to apply the same sequence', 20_000, async () => new Set((await Promise.all(urls.map(health))).map((state) => state?.appliedSeq)).size === 1);
  const converged = new Set(await Promise.all(urls.map(catalogueDigest))).size === 1;
  return { rounds, converged };
}
