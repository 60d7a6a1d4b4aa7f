/**
 * Where the processes of a run may execute. Pinned (the default): the server
 * under test on one core, the load generator (this process) on another, so
 * the two never steal time from each other and every server gets exactly one
 * core, as the targets assume. Done with taskset when it exists and there are
 * at least two cores; otherwise nothing is pinned and the report says so.
 * Unpinned (`--unpinned`): nothing is pinned, so a server with a worker
 * thread can run it beside its front on another core.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';

export const LOAD_CORE = 0;
export const SERVER_CORE = 1;

/** Set in the environment of the re-executed harness, so it runs only once. */
const PINNED_MARK = 'CATALOGUE_BENCH_PINNED';

/** The run's mode: decided once at start, named in the report. */
export type Placement = 'pinned' | 'unpinned' | 'cannot-pin';

function tasksetWorks(): boolean {
  const probe = spawnSync('taskset', ['-c', String(LOAD_CORE), 'true'], { stdio: 'ignore', timeout: 5_000 });
  return probe.status === 0;
}

export function choosePlacement(unpinned: boolean): Placement {
  if (unpinned) return 'unpinned';
  // os.cpus(), not availableParallelism(): once pinned, this process is
  // allowed one core, but the machine still has them all.
  return process.env[PINNED_MARK] === '1' || (os.cpus().length >= 2 && tasksetWorks()) ? 'pinned' : 'cannot-pin';
}

/** The argv that starts a server: on the server core when pinned, unchanged otherwise. */
export function serverCommand(argv: readonly string[], placement: Placement): string[] {
  return placement === 'pinned' ? ['taskset', '-c', String(SERVER_CORE), ...argv] : [...argv];
}

/**
 * Runs this very harness again under `taskset -c 0` and exits with its code;
 * returns only when no re-exec is needed (already pinned, or not pinning).
 */
export function reExecOnLoadCore(placement: Placement): void {
  if (placement !== 'pinned' || process.env[PINNED_MARK] === '1') return;
  const child = spawnSync('taskset', ['-c', String(LOAD_CORE), process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [PINNED_MARK]: '1' },
  });
  process.exit(child.status ?? 1);
}

/** The mode first, in bold, then what it means. */
export function describePlacement(placement: Placement): string {
  const cores = os.cpus().length;
  switch (placement) {
    case 'pinned':
      return `**pinned**: each server on core ${SERVER_CORE} (\`taskset -c ${SERVER_CORE}\`, all its threads), load generator and harness on core ${LOAD_CORE}`;
    case 'unpinned':
      return `**unpinned** (\`--unpinned\`): servers, all their threads, and the load generator (in the harness) are placed by the kernel on all ${cores} cores, so a server may use more than one core (CPU busy can pass 100%) and share it with the load generator; not comparable with a pinned run`;
    case 'cannot-pin':
      return '**not pinned** (taskset missing or fewer than two cores): server and load generator share the machine';
  }
}
