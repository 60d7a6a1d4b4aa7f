/**
 * What the kernel knows about a server process: CPU time and resident memory
 * from /proc, and the machine the run happened on. CPU time is read for the
 * whole process (every thread, the store worker included), which is the
 * figure that stays honest when the load generator, not the server, is the
 * bottleneck.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';

function clockTicksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5_000 }).trim());
    return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

const MICROSECONDS_PER_TICK = 1e6 / clockTicksPerSecond();

/** True when /proc/PID/stat can be read here (Linux). */
export function canReadProcessCpu(pid: number): boolean {
  return processCpuMicroseconds(pid) !== undefined;
}

/**
 * utime + stime of the process, all threads, in microseconds; undefined when
 * /proc is not there. The comm field may hold spaces and parentheses, so the
 * fields are counted from the last ')'.
 */
export function processCpuMicroseconds(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the comm field: state is field 3 of stat(5), utime 14, stime 15.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return (utime + stime) * MICROSECONDS_PER_TICK;
}

/**
 * CPU time of a process and its children in microseconds: utime + stime of
 * `root` and of each living child, and what its children that have ended
 * and been reaped spent (cutime + cstime). A PostgreSQL server's own CPU,
 * its postmaster and every backend; undefined without /proc.
 */
export function processTreeCpuMicroseconds(root: number): number | undefined {
  let ticks = 0;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the comm field: ppid is field 4 of stat(5), utime 14, stime 15, cutime 16, cstime 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    const own = (fields[11] ?? 0) + (fields[12] ?? 0);
    if (Number(pid) === root) ticks += own + (fields[13] ?? 0) + (fields[14] ?? 0);
    else if (fields[1] === root) ticks += own;
  }
  return ticks * MICROSECONDS_PER_TICK;
}

/**
 * CPU time the whole machine spent busy (every core, every process), in
 * microseconds; undefined without /proc. Set against the server's and the
 * load generator's own, it shows how much else was running during a window.
 */
export function machineBusyMicroseconds(): number | undefined {
  let line: string | undefined;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  } catch {
    return undefined;
  }
  // cpu user nice system idle iowait irq softirq steal ...
  const ticks = (line ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
  if (ticks.length < 8 || ticks.some((value) => !Number.isFinite(value))) return undefined;
  const [user, nice, system, , , irq, softirq, steal] = ticks as [number, number, number, number, number, number, number, number];
  return (user + nice + system + irq + softirq + steal) * MICROSECONDS_PER_TICK;
}

/** A server counts as idle while it uses less than this share of a core (one clock tick in a poll). */
const IDLE_SHARE = 0.1;
const IDLE_POLL_MS = 100;

/**
 * Waits, up to `maxSeconds`, for a poll in which the process is idle: done
 * with what it was sent. True once it is; true at once without /proc, where
 * nothing can be told.
 */
export async function untilIdle(pid: number, maxSeconds: number): Promise<boolean> {
  const started = Date.now();
  let before = processCpuMicroseconds(pid);
  while (before !== undefined) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
    const after = processCpuMicroseconds(pid);
    if (after === undefined || after - before <= IDLE_SHARE * IDLE_POLL_MS * 1000) return true;
    if (Date.now() - started >= maxSeconds * 1000) return false;
    before = after;
  }
  return true;
}

/** The machine counts as quiet while everything on it uses less than this many cores. */
export const QUIET_CORES = 0.25;

/**
 * Waits, up to `maxSeconds`, for half a second in which the machine is quiet.
 * A shared machine runs other work in bursts; starting a case between them
 * keeps that work out of the numbers. Resolves with the last busy figure.
 */
export async function waitForQuiet(maxSeconds: number): Promise<{ readonly waitedSeconds: number; readonly busyCores: number | undefined }> {
  const started = Date.now();
  let busyCores: number | undefined;
  while (Date.now() - started < maxSeconds * 1000) {
    const before = machineBusyMicroseconds();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = machineBusyMicroseconds();
    if (before === undefined || after === undefined) break;
    busyCores = (after - before) / 500_000;
    if (busyCores < QUIET_CORES) break;
  }
  return { waitedSeconds: (Date.now() - started) / 1000, busyCores };
}

export interface ProcessMemory {
  /** VmRSS: resident now. */
  readonly rssBytes: number;
  /** VmHWM: the highest resident size so far. */
  readonly peakRssBytes: number;
}

export function processMemory(pid: number): ProcessMemory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = (name: string): number | undefined => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status);
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
  };
  const rss = kib('VmRSS');
  const peak = kib('VmHWM');
  return rss === undefined ? undefined : { rssBytes: rss, peakRssBytes: peak ?? rss };
}

/** The process's executable name: `node` once taskset has exec'd it. */
export function processName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

export interface Machine {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly kernel: string;
  readonly node: string;
}

export function describeMachine(): Machine {
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1] !== undefined) cpuModel = match[1].trim();
  } catch {
    // Not Linux: os.cpus() is the best there is.
  }
  return {
    cpuModel,
    // Every core of the machine: availableParallelism() would say 1 once pinned.
    cores: os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    kernel: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}
