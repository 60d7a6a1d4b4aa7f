/**
 * The journal's crash rounds at length: `node --import tsx bench/journal/crash-rounds.ts
 * --rounds 20` (after `npm run build`). The same workloads as
 * test/faults/journal/journal-crash.test.ts (test/helpers/faults/catalogue-crash-workload.ts and
 * shop-crash-workload.ts), at their own sizes (a hundred writers where the
 * test runs ten): SIGKILL after a random 100 to 600 ms of load, right after
 * an acknowledgment (test/helpers/faults/crash-rounds.ts), a restart on the same
 * DATA_DIR, every acknowledged write checked; here twenty rounds or more per
 * workload, one folder each (so the journal, and the replay, grow round after
 * round), with the figures of each round and a summary. Exit code 1 when any
 * check failed, 2 for a bad option.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { runCrashRounds, type CrashRun, type CrashWorkload, type RoundFigures } from '../../test/helpers/faults/crash-rounds.js';
import { catalogueCrashWorkload } from '../../test/helpers/faults/catalogue-crash-workload.js';
import { shopCrashWorkload } from '../../test/helpers/faults/shop-crash-workload.js';
import { seededRandom } from '../../test/helpers/seeded-random.js';

const USAGE = `usage: node --import tsx bench/journal/crash-rounds.ts [options]   (run npm run build first)
  --rounds N          crash rounds per workload (default 20)
  --workload NAME     catalogue, marketplace or both (default both)
  --seed N            the random choices' seed (default: random, printed)
  --load-ms MIN,MAX   load before each SIGKILL, chosen at random in this range (default 100,600)
  --keep              keep the DATA_DIR folders (their paths are printed)`;

interface Options {
  readonly rounds: number;
  readonly workloads: readonly ('catalogue' | 'marketplace')[];
  readonly seed: number;
  readonly loadMs: readonly [number, number];
  readonly keep: boolean;
}

class OptionError extends Error {
  override readonly name = 'OptionError';
}

function integer(name: string, text: string | undefined, min: number): number {
  const value = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || value < min) throw new OptionError(`${name} must be an integer from ${min}`);
  return value;
}

function parseOptions(args: readonly string[]): Options {
  let rounds = 20;
  let workloads: Options['workloads'] = ['catalogue', 'marketplace'];
  let seed = randomInt(2 ** 31);
  let loadMs: Options['loadMs'] = [100, 600];
  let keep = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    const value = (): string | undefined => args[++index];
    if (arg === '--rounds') rounds = integer('--rounds', value(), 1);
    else if (arg === '--seed') seed = integer('--seed', value(), 0);
    else if (arg === '--keep') keep = true;
    else if (arg === '--workload') {
      const name = value();
      if (name === 'both') workloads = ['catalogue', 'marketplace'];
      else if (name === 'catalogue' || name === 'marketplace') workloads = [name];
      else throw new OptionError('--workload must be catalogue, marketplace or both');
    } else if (arg === '--load-ms') {
      const [min, max] = (value() ?? '').split(',');
      loadMs = [integer('--load-ms MIN', min, 1), integer('--load-ms MAX', max, 1)];
      if (loadMs[0] > loadMs[1]) throw new OptionError('--load-ms MIN must not be above MAX');
    } else throw new OptionError(`unknown option ${String(arg)}`);
  }
  return { rounds, workloads, seed, loadMs, keep };
}

const WORKLOADS: Readonly<Record<Options['workloads'][number], (seed: number) => CrashWorkload>> = {
  catalogue: (seed) => catalogueCrashWorkload(seededRandom(seed)),
  marketplace: (seed) => shopCrashWorkload(seededRandom(seed)),
};

/** The machine's 1, 5 and 15 minute load averages: the times below mean little beside other work. */
const loadAverage = (): string => loadavg().map((value) => value.toFixed(1)).join(' / ');

const pad = (value: string | number, width: number): string => String(value).padStart(width);
const COLUMNS = ['round', 'load ms', 'acked', 'unanswered', 'refused', 'in flight applied', 'restart ms', 'recovery ms', 'replayed cmds', 'journal KiB', 'cut', 'left charging', 'violations'] as const;

function row(figures: RoundFigures): string {
  const cells = [
    figures.round,
    figures.loadMs,
    figures.acknowledged,
    figures.unanswered,
    figures.refused,
    figures.notes['in flight, applied'] ?? 0,
    Math.round(figures.restartMs),
    figures.recoveryMs ?? '?',
    figures.replayed ?? '?',
    Math.round(figures.journalBytes / 1024),
    figures.cut ? 'yes' : 'no',
    figures.notes['payments left charging'] ?? '-',
    figures.violations.length,
  ];
  return `| ${cells.map((cell, index) => pad(cell, COLUMNS[index]?.length ?? 0)).join(' | ')} |`;
}

function spread(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return `median ${Math.round(at(0.5))}, min ${Math.round(sorted[0] ?? Number.NaN)}, max ${Math.round(sorted.at(-1) ?? Number.NaN)}`;
}

function summary(name: string, run: CrashRun): { lines: string[]; violations: number } {
  const sum = (pick: (round: RoundFigures) => number): number => run.rounds.reduce((total, round) => total + pick(round), 0);
  const violations = [...run.rounds.flatMap((round) => round.violations.map((violation) => `round ${round.round}: ${violation}`)), ...run.clean.violations.map((violation) => `after the clean restart: ${violation}`)];
  if (run.clean.exit.code !== 0) violations.push(`the clean stop ended with ${JSON.stringify(run.clean.exit)}`);
  if (run.clean.lockLeft) violations.push('LOCK left after a clean stop');
  violations.push(...run.secretsOnDisk.map((secret) => `a secret in the journal: ${secret.slice(0, 4)}…`));
  const lines = [
    ``,
    `${name}: ${run.rounds.length} rounds, seed ${run.seed}`,
    `  writes acknowledged ${sum((round) => round.acknowledged)}, unanswered at the kill ${sum((round) => round.unanswered)} (of which found applied ${sum((round) => round.notes['in flight, applied'] ?? 0)}), refused ${sum((round) => round.refused)}`,
    `  restart to listening ms: ${spread(run.rounds.map((round) => round.restartMs))}`,
    `  recovery ms ("journal recovered"): ${spread(run.rounds.map((round) => round.recoveryMs ?? Number.NaN))}; commands replayed in the last round ${run.rounds.at(-1)?.replayed}, journal ${Math.round((run.rounds.at(-1)?.journalBytes ?? 0) / 1024)} KiB`,
    `  torn tails cut: ${run.rounds.filter((round) => round.cut).length}; payments left charging by a crash: ${sum((round) => round.notes['payments left charging'] ?? 0)}`,
    `  violations: ${violations.length}`,
    ...violations.slice(0, 20).map((violation) => `    ${violation}`),
  ];
  return { lines, violations: violations.length };
}

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof OptionError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    return 2;
  }
  console.log(`# Journal crash rounds: node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} (${availableParallelism()} CPUs), Linux ${release()}, DATA_DIR under ${tmpdir()}`);
  console.log(`seed ${options.seed}, ${options.rounds} rounds per workload, ${options.loadMs.join(' to ')} ms of load before each SIGKILL; load average ${loadAverage()} at the start`);
  let failed = false;
  const summaries: string[] = [];
  for (const name of options.workloads) {
    const dataDir = mkdtempSync(join(tmpdir(), `crash-rounds-${name}-`));
    console.log(`\n## ${name} (DATA_DIR ${dataDir})\n`);
    console.log(`| ${COLUMNS.join(' | ')} |`);
    console.log(`|${COLUMNS.map((column) => `${'-'.repeat(column.length + 1)}:`).join('|')}|`);
    try {
      const run = await runCrashRounds(WORKLOADS[name](options.seed), { dataDir, rounds: options.rounds, seed: options.seed, loadMs: options.loadMs, onRound: (figures) => console.log(row(figures)) });
      const { lines, violations } = summary(name, run);
      summaries.push(...lines);
      if (violations > 0) failed = true;
    } finally {
      if (!options.keep) rmSync(dataDir, { recursive: true, force: true });
    }
  }
  console.log(`\n## Summary (load average ${loadAverage()} at the end: on a shared machine other work slows the restarts)${summaries.join('\n')}`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
