/**
 * Crash rounds on one DATA_DIR, shared by test/faults/journal/journal-crash.test.ts and
 * bench/journal/crash-rounds.ts: the built service as a child process, a workload's
 * writers hammering it, a real SIGKILL right after an acknowledgment, after a
 * random time under load, while writes are in flight (crashRound says why
 * that moment), a restart on the same folder, and the workload's check of
 * what came back against what was acknowledged. The rounds follow each other
 * on the same folder, so every round also replays the rounds before it (and
 * the stale LOCK of a killed process is taken over each time). A clean stop
 * and start end the run: everything must come back exactly once more.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { startService, type RunningService } from '../service/service.js';
import { waitFor } from '../wait-for.js';
import { seededRandom, type Random } from '../seeded-random.js';
import { WriteCounter } from './write-counter.js';

export { WriteCounter } from './write-counter.js';

/** What a writer reads to know when to stop starting writes. */
export interface LoadControl {
  readonly stopped: boolean;
}

/** A workload's findings after a restart. */
export interface Verdict {
  /** Each one a broken promise of the journal (or of the workload's own assumptions), said plainly. */
  readonly violations: readonly string[];
  /** Counts worth printing beside the figures (e.g. charges a crash left out). */
  readonly notes: Readonly<Record<string, number>>;
}

export interface CrashWorkload {
  readonly name: string;
  /** How many writers the load runs at once. */
  readonly writers: number;
  /** The settings of every start, DATA_DIR aside. */
  readonly env: Readonly<Record<string, string>>;
  /** What the load starts from, written before the first round (acknowledged, not counted). */
  setup(service: RunningService): Promise<void>;
  /** Runs the writers until `control.stopped` or until a write goes unanswered; resolves once every writer has returned. */
  load(service: RunningService, control: LoadControl, writes: WriteCounter): Promise<void>;
  /**
   * Checks a restarted service against what was acknowledged and what was
   * in flight, then takes what it found as the new state (an unanswered write
   * that was applied is from now on a write like any other).
   */
  verify(service: RunningService): Promise<Verdict>;
  /** Strings that must never reach the disk: card numbers, passwords. */
  secrets(): readonly string[];
}

export interface RoundFigures {
  readonly round: number;
  readonly loadMs: number;
  readonly acknowledged: number;
  readonly refused: number;
  readonly unanswered: number;
  /** From spawning the process to its "listening on" line. */
  readonly restartMs: number;
  /** The "journal recovered" line's own figures. */
  readonly recoveryMs: number | undefined;
  readonly replayed: number | undefined;
  /** The snapshot the restart began from (undefined: it replayed the whole journal). */
  readonly snapshotSeq: number | undefined;
  readonly journalBytes: number;
  /** Whether the start logged a torn tail cut off. */
  readonly cut: boolean;
  readonly verifyMs: number;
  readonly violations: readonly string[];
  readonly notes: Readonly<Record<string, number>>;
}

export interface CrashRun {
  readonly seed: number;
  readonly rounds: readonly RoundFigures[];
  /** The clean stop and start after the last round: exit code, and the check of everything once more. */
  readonly clean: { readonly exit: { code: number | null; signal: NodeJS.Signals | null }; readonly lockLeft: boolean; readonly violations: readonly string[] };
  /** Secrets found in the journal's files and the snapshots. */
  readonly secretsOnDisk: readonly string[];
}

/**
 * The tests' sizes (test/faults/journal/journal-crash.test.ts, journal-snapshot-crash.test.ts;
 * bench/journal/crash-rounds.ts runs the workloads' own, a hundred writers): about
 * the least that still fail on deliberate breaks of the journal (a record
 * replayed twice or left out, a snapshot that drops what was written while it
 * was taken: every run; answers given out before their flush: see below).
 * Each round costs a start of the service, about 0.3 s of CPU.
 *
 * An answer given out before its flush is lost at a kill only when the kill
 * lands while that flush is on its way, which depends on the disk and on how
 * busy the machine is: on this project's machine about one catalogue kill in
 * three with the load average at 5, seven in ten at 20, and one shop kill in
 * two. journal-group-commit.test.ts and journal-held-answers.unit.test.ts
 * catch that break every time; these files catch it in most runs.
 */
export const TEST_ROUNDS = {
  /** Load before each kill, ms: the writes it leaves are the round's state; the kill's moment does not depend on it. */
  loadMs: [30, 100],
  catalogue: { writers: 10, rounds: 2, roundsWithSnapshots: 1 },
  marketplace: { sizes: { shoppers: 4, registrants: 1, administrators: 1 }, rounds: 1 },
} as const;

export interface CrashRunOptions {
  readonly dataDir: string;
  readonly rounds: number;
  readonly seed: number;
  /** The load runs this long before the SIGKILL, chosen at random in [min, max] each round. */
  readonly loadMs?: readonly [min: number, max: number];
  /** Awaited after the load's time and before the kill, for what the round needs on disk first (a snapshot, say): a slow machine may not have it yet. */
  readonly beforeKill?: () => Promise<void>;
  readonly onRound?: (figures: RoundFigures) => void;
  /** Called once the start after the clean stop listens, before anything is sent to it: what that start left on disk. */
  readonly onCleanStart?: () => void;
}

interface LogLine {
  readonly level?: string;
  readonly msg?: string;
  readonly milliseconds?: number;
  readonly replayed?: number;
  readonly snapshotSeq?: number;
}

/** Far above the time any load takes to reach a moment it waits for; only a hung service reaches it. */
const LOAD_CEILING_MS = 30_000;

/** Resolves with `ready`, or when the load ends first (every writer gone: nothing more will come); throws past the ceiling, naming what never came. */
async function unlessLoadEnded(ready: Promise<void>, loading: Promise<void>, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ceiling = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`waited ${LOAD_CEILING_MS} ms for ${what}`)), LOAD_CEILING_MS)));
  try {
    await Promise.race([ready, loading, ceiling]);
  } finally {
    clearTimeout(timer);
  }
}

function logLines(stderr: string): LogLine[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** The start's recovery line (stderr may trail the stdout line that said "listening"); undefined if it never comes. */
async function recoveryLine(service: RunningService): Promise<LogLine | undefined> {
  const line = (): LogLine | undefined => logLines(service.stderr()).find((each) => each.msg === 'journal recovered');
  await waitFor('the "journal recovered" line', () => line() !== undefined).catch(() => undefined);
  return line();
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).map((name) => join(dir, name));
}

export function journalBytes(dataDir: string): number {
  return filesUnder(join(dataDir, 'journal')).reduce((sum, file) => sum + statSync(file).size, 0);
}

export const startOn = (workload: CrashWorkload, dataDir: string): Promise<RunningService> => startService({ env: { ...workload.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' } });

/** Log lines at warn or above other than the torn-tail one: none are expected of a start after a crash. */
function unexpectedLogLines(service: RunningService): string[] {
  return logLines(service.stderr())
    .filter((line) => (line.level === 'warn' || line.level === 'error' || line.level === 'fatal') && !(line.msg ?? '').startsWith('journal: a torn last write'))
    .map((line) => `log line: ${JSON.stringify(line)}`);
}

/** The service running now: a round replaces it, and whoever holds this stops the last one whatever happens. */
interface Current {
  service: RunningService;
}

async function crashRound(workload: CrashWorkload, current: Current, round: number, random: Random, options: CrashRunOptions): Promise<RoundFigures> {
  const { service } = current;
  const [minMs, maxMs] = options.loadMs ?? [100, 600];
  const loadMs = random.int(minMs, maxMs);
  const writes = new WriteCounter();
  const control = { stopped: false };
  const loading = workload.load(service, control, writes);
  await delay(loadMs);
  await options.beforeKill?.();
  // The kill comes right after an acknowledgment, with writes out behind
  // it. The writes are held at a gate until every answer is in, then let go
  // at once; once the first of them is acknowledged its writer sends again,
  // and the kill follows the acknowledgment of a write sent after that one
  // (and the next write sent, which cannot have been answered yet). With the
  // journal kept, that answer came after its flush, and the writes behind it
  // are on their way to the disk or not yet run. A service that answered
  // before its flush would hold answered writes in memory only: those run
  // while the first flush was still on its way. (Answers the service wrote
  // before it died still arrive after the kill, and count as acknowledged.)
  writes.hold();
  await unlessLoadEnded(writes.whenIdle(), loading, 'every write answered before the held ones go');
  const first = writes.nextAcknowledged();
  writes.release();
  await unlessLoadEnded(first, loading, 'an acknowledgment of the writes let go');
  await unlessLoadEnded(writes.nextAcknowledged(writes.sent), loading, 'an acknowledgment of a write sent after the first');
  await unlessLoadEnded(writes.nextSend(), loading, 'a write sent after that acknowledgment');
  const killed = service.stop('SIGKILL');
  control.stopped = true;
  const ended = await killed;
  await loading;
  const violations: string[] = [];
  if (ended.signal !== 'SIGKILL') violations.push(`the service was to die of SIGKILL, it ended with ${JSON.stringify(ended)}`);

  const startedAt = performance.now();
  const restarted = await startOn(workload, options.dataDir);
  current.service = restarted;
  const restartMs = performance.now() - startedAt;
  const recovered = await recoveryLine(restarted);
  if (recovered === undefined) violations.push('no "journal recovered" line after the restart');
  const cuts = logLines(restarted.stderr()).filter((line) => (line.msg ?? '').startsWith('journal: a torn last write')).length;
  if (cuts > 1) violations.push(`${cuts} torn-tail lines in one start`);
  const verifyStarted = performance.now();
  const verdict = await workload.verify(restarted);
  violations.push(...verdict.violations, ...unexpectedLogLines(restarted));
  return {
      round,
      loadMs,
      acknowledged: writes.acknowledged,
      refused: writes.refused,
      unanswered: writes.unanswered,
      restartMs,
      recoveryMs: recovered?.milliseconds,
      replayed: recovered?.replayed,
      snapshotSeq: recovered?.snapshotSeq,
      journalBytes: journalBytes(options.dataDir),
      cut: cuts > 0,
      verifyMs: performance.now() - verifyStarted,
      violations,
      notes: verdict.notes,
  };
}

function secretsInJournal(dataDir: string, secrets: readonly string[]): string[] {
  const folders = ['journal', 'snapshots'].map((folder) => join(dataDir, folder)).filter((folder) => existsSync(folder));
  const files = folders.flatMap(filesUnder).map((file) => readFileSync(file, 'latin1'));
  return secrets.filter((secret) => files.some((text) => text.includes(secret)));
}

/** Runs the rounds; the caller owns (and removes) the folder. */
export async function runCrashRounds(workload: CrashWorkload, options: CrashRunOptions): Promise<CrashRun> {
  // Not the workload's stream: the load's length must not follow its choices.
  const random = seededRandom(options.seed ^ 0x5bd1e995);
  const current: Current = { service: await startOn(workload, options.dataDir) };
  try {
    await workload.setup(current.service);
    const rounds: RoundFigures[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const figures = await crashRound(workload, current, round, random, options);
      rounds.push(figures);
      options.onRound?.(figures);
    }
    const exit = await current.service.stop('SIGTERM');
    const lockLeft = existsSync(join(options.dataDir, 'LOCK'));
    current.service = await startOn(workload, options.dataDir);
    options.onCleanStart?.();
    const verdict = await workload.verify(current.service);
    const violations = [...verdict.violations, ...unexpectedLogLines(current.service)];
    if (logLines(current.service.stderr()).some((line) => (line.msg ?? '').startsWith('journal: a torn last write'))) violations.push('a torn tail was cut after a clean stop');
    return { seed: options.seed, rounds, clean: { exit, lockLeft, violations }, secretsOnDisk: secretsInJournal(options.dataDir, workload.secrets()) };
  } finally {
    await current.service.stop('SIGTERM');
  }
}
