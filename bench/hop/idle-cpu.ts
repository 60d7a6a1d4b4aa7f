/**
 * An idle service's CPU (issue 30, item 4: "no spinning while idle"):
 * `node --import tsx bench/hop/idle-cpu.ts [--seconds 10] [--baseline-dist DIR]`
 * after `npm run build`. Each case spawns `node dist/main.js` on port 0, waits
 * for its listening line and 3 s more (the start's own work, the store's first
 * snapshot check), then reads the CPU of every thread of the process from
 * /proc over the window, nothing asked of it. The cases run side by side
 * (idle, they do not disturb each other). Prints a markdown table: the share
 * of one core, and the clock ticks it is counted in (10 ms each here, so a
 * 10 s window resolves 0.1%). Exit code 1 when a case did not start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { processCpuMicroseconds } from '../harness/proc-stats.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, 'baseline-dist': { type: 'string' } } });
const seconds = Number(values.seconds);
if (!Number.isFinite(seconds) || seconds < 1) {
  process.stderr.write('--seconds: a number of seconds, at least 1\n');
  process.exit(2);
}

interface Case {
  readonly name: string;
  readonly main: string;
  readonly env: Readonly<Record<string, string>>;
  readonly dataDir: boolean;
}

const casesOf = (dist: string, suffix: string): Case[] => {
  const main = join(dist, 'main.js');
  return [
    { name: `seed mode${suffix}`, main, env: {}, dataDir: false },
    { name: `seed mode, METRICS=0${suffix}`, main, env: { METRICS: '0' }, dataDir: false },
    { name: `marketplace${suffix}`, main, env: { MARKETPLACE: '1' }, dataDir: false },
    { name: `marketplace with DATA_DIR${suffix}`, main, env: { MARKETPLACE: '1' }, dataDir: true },
  ];
};

const cases = [...casesOf(fileURLToPath(new URL('../../dist', import.meta.url)), ''), ...(values['baseline-dist'] === undefined ? [] : casesOf(values['baseline-dist'], ' (baseline)'))];

async function measure(entry: Case): Promise<string> {
  const dataDir = entry.dataDir ? mkdtempSync(join(tmpdir(), 'idle-cpu-')) : undefined;
  const child: ChildProcess = spawn(process.execPath, [entry.main, '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...entry.env, ...(dataDir === undefined ? {} : { DATA_DIR: dataDir }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    child.stdout?.setEncoding('utf8');
    const listening = new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('listening on')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`${entry.name}: exited with ${code} before listening`)));
    });
    await listening;
    await sleep(3_000);
    const pid = child.pid ?? 0;
    const before = processCpuMicroseconds(pid);
    const started = process.hrtime.bigint();
    await sleep(seconds * 1_000);
    const after = processCpuMicroseconds(pid);
    const elapsed = Number(process.hrtime.bigint() - started) / 1e3;
    if (before === undefined || after === undefined) throw new Error('no /proc here: this bench reads CPU from /proc/PID/stat');
    const share = ((after - before) / elapsed) * 100;
    return `| ${entry.name} | ${share.toFixed(2)}% | ${Math.round((after - before) / 10_000)} |`;
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

const load = loadavg().map((value) => value.toFixed(2)).join(', ');
const rows = await Promise.all(cases.map(measure)).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
process.stdout.write(
  [
    `Idle CPU over ${seconds} s, ${new Date().toISOString()}, Node ${process.version}, load average ${load} at the start`,
    '',
    '| case | CPU, share of one core | clock ticks |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n'),
);
