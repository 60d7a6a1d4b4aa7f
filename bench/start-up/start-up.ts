/**
 * Start-up time: `node --import tsx bench/start-up/start-up.ts` (after `npm run
 * build`). Each case spawns `node dist/main.js` on a free port, again and
 * again, and times it from the spawn to its first answered request (GET
 * /health answering 200, asked every few milliseconds) and to its listening
 * line; then stops it with SIGTERM. The cases take turns, round after round,
 * so that a slow moment of a shared machine falls on all of them. The floor
 * is a bare node:http server started the same way: Node's own start, which
 * no change to the service can take off. `--baseline-dist DIR` adds the same
 * cases for another build (the branch before a change). Prints a markdown
 * table of medians with the lowest and highest start. Exit code 1 when a
 * start failed, 2 for a bad option.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, cpus, loadavg, release, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '../harness/free-port.js';

const USAGE = `usage: node --import tsx bench/start-up/start-up.ts [options]   (run npm run build first)
  --runs N              starts per case (default 15)
  --baseline-dist DIR   also time the build in DIR (its main.js), as "<case> (baseline)"
  --cases LIST          some of floor,plain,marketplace,data-dir,data-dir-marketplace (default all)`;

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
/** How often a start not yet answering is asked again: the figures' resolution. */
const POLL_MS = 10;
/** Far above any start; only a hung one reaches it. */
const CEILING_MS = 30_000;

/** A bare node:http server: what Node itself costs to start and answer. */
const FLOOR_SERVER = "require('node:http').createServer((req, res) => res.end('ok')).listen(Number(process.argv[1]), '127.0.0.1', () => process.stdout.write('listening\\n')); process.on('SIGTERM', () => process.exit(0));";

interface Case {
  readonly name: string;
  /** The node arguments, given the port. */
  readonly args: (port: number) => string[];
  readonly env?: Readonly<Record<string, string>>;
  /** An empty DATA_DIR for every start. */
  readonly dataDir?: boolean;
}

const serviceCases = (dist: string, suffix: string): Case[] => {
  const main = join(dist, 'main.js');
  const args = (port: number): string[] => [main, '--port', String(port)];
  return [
    { name: `plain${suffix}`, args },
    { name: `marketplace${suffix}`, args, env: { MARKETPLACE: '1' } },
    { name: `data-dir${suffix}`, args, dataDir: true },
    { name: `data-dir-marketplace${suffix}`, args, env: { MARKETPLACE: '1' }, dataDir: true },
  ];
};

const FLOOR: Case = { name: 'floor', args: (port) => ['-e', FLOOR_SERVER, String(port)] };

interface Options {
  readonly runs: number;
  readonly baselineDist: string | undefined;
  readonly cases: readonly string[];
}

class OptionError extends Error {
  override readonly name = 'OptionError';
}

const CASE_NAMES = ['floor', 'plain', 'marketplace', 'data-dir', 'data-dir-marketplace'];

function parseOptions(args: readonly string[]): Options {
  let runs = 15;
  let baselineDist: string | undefined;
  let cases = CASE_NAMES;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    const value = (): string | undefined => args[++index];
    if (arg === '--runs') {
      const text = value();
      runs = Number(text);
      if (text === undefined || !/^\d+$/.test(text) || runs < 1) throw new OptionError('--runs must be an integer from 1');
    } else if (arg === '--baseline-dist') {
      const dir = value();
      if (dir === undefined) throw new OptionError('--baseline-dist needs a folder');
      baselineDist = resolve(dir);
    } else if (arg === '--cases') {
      cases = (value() ?? '').split(',');
      const unknown = cases.find((name) => !CASE_NAMES.includes(name));
      if (unknown !== undefined) throw new OptionError(`--cases: unknown case ${unknown} (${CASE_NAMES.join(', ')})`);
    } else throw new OptionError(`unknown option ${String(arg)}`);
  }
  return { runs, baselineDist, cases };
}

/** One GET /health on a fresh connection: its status, or undefined while nothing listens. */
function health(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/health', agent: false, headers: { connection: 'close' } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    });
    request.on('error', () => resolve(undefined));
  });
}

interface Start {
  /** Spawn to the first 200. */
  readonly answeredMs: number;
  /** Spawn to the listening line on stdout. */
  readonly listeningMs: number;
}

async function startOnce(one: Case): Promise<Start> {
  const port = await freePort();
  const dataDir = one.dataDir === true ? mkdtempSync(join(tmpdir(), 'start-up-')) : undefined;
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...one.env, ...(dataDir === undefined ? {} : { DATA_DIR: dataDir }) };
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, one.args(port), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let listeningMs: number | undefined;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (listeningMs === undefined && chunk.includes('listening')) listeningMs = performance.now() - spawnedAt;
  });
  const closed = once(child, 'close');
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${one.name}: exited with ${child.exitCode} before answering; stderr: ${stderr}`);
      if (performance.now() - spawnedAt > CEILING_MS) throw new Error(`${one.name}: no answer in ${CEILING_MS} ms`);
      const status = await health(port);
      if (status === 200) break;
      if (status !== undefined) throw new Error(`${one.name}: GET /health answered ${status}`);
      await sleep(POLL_MS);
    }
    const answeredMs = performance.now() - spawnedAt;
    return { answeredMs, listeningMs: listeningMs ?? answeredMs };
  } finally {
    child.kill('SIGTERM');
    await closed;
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const figures = (values: readonly number[]): string => `${Math.round(median(values))} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;

const loadAverage = (): string => loadavg().map((value) => value.toFixed(2)).join(', ');

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof OptionError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    return 2;
  }
  const wanted = (one: Case): boolean => options.cases.includes(one.name.replace(' (baseline)', ''));
  const cases = [FLOOR, ...serviceCases(DIST, ''), ...(options.baselineDist === undefined ? [] : serviceCases(options.baselineDist, ' (baseline)'))].filter(wanted);
  const started = new Date();
  console.log(`# Start-up time: node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} (${availableParallelism()} CPUs), Linux ${release()}`);
  console.log(`${started.toISOString()}; ${options.runs} starts per case, the cases taking turns; load average ${loadAverage()} at the start`);
  const results = new Map<string, Start[]>(cases.map((one) => [one.name, []]));
  for (let run = 0; run < options.runs; run++) {
    // A rotating order: no case always follows the same one.
    for (let index = 0; index < cases.length; index++) {
      const one = cases[(run + index) % cases.length] as Case;
      results.get(one.name)?.push(await startOnce(one));
    }
  }
  console.log(`load average ${loadAverage()} at the end, after ${Math.round((Date.now() - started.getTime()) / 1000)} s\n`);
  console.log('| case | spawn to first 200, ms: median (min–max) | spawn to listening line, ms: median (min–max) |');
  console.log('|---|---|---|');
  for (const [name, starts] of results) console.log(`| ${name} | ${figures(starts.map((start) => start.answeredMs))} | ${figures(starts.map((start) => start.listeningMs))} |`);
  return 0;
}

process.exitCode = await main();
