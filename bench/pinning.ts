/**
 * Core pinning: the server under test on one core, the load generator (this
 * process) on another, so the two never steal time from each other and every
 * server gets exactly one core, as the targets assume. Done with taskset when
 * it exists and there are at least two cores; otherwise nothing is pinned and
 * the report says so.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';

export const LOAD_CORE = 0;
export const SERVER_CORE = 1;

/** Set in the environment of the re-executed harness, so it runs only once. */
const PINNED_MARK = 'CATALOGUE_BENCH_PINNED';

function tasksetWorks(): boolean {
  const probe = spawnSync('taskset', ['-c', String(LOAD_CORE), 'true'], { stdio: 'ignore', timeout: 5_000 });
  return probe.status === 0;
}

// os.cpus(), not availableParallelism(): once pinned, this process is
// allowed one core, but the machine still has them all.
export const PINNING_AVAILABLE = process.env[PINNED_MARK] === '1' || (os.cpus().length >= 2 && tasksetWorks());

/** The argv that starts `argv` on the server core (unchanged without pinning). */
export function onServerCore(argv: readonly string[]): string[] {
  return PINNING_AVAILABLE ? ['taskset', '-c', String(SERVER_CORE), ...argv] : [...argv];
}

/**
 * Runs this very harness again under `taskset -c 0` and exits with its code;
 * returns only when no re-exec is needed (already pinned, or cannot pin).
 */
export function reExecOnLoadCore(): void {
  if (!PINNING_AVAILABLE || process.env[PINNED_MARK] === '1') return;
  const child = spawnSync('taskset', ['-c', String(LOAD_CORE), process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [PINNED_MARK]: '1' },
  });
  process.exit(child.status ?? 1);
}

export function describePinning(): string {
  return PINNING_AVAILABLE
    ? `each server pinned to core ${SERVER_CORE} (\`taskset -c ${SERVER_CORE}\`, all its threads), load generator and harness on core ${LOAD_CORE}`
    : 'not pinned (taskset missing or fewer than two cores): server and load generator share the machine';
}
