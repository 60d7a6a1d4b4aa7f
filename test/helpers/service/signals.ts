/** Whether the kernel has handed a process the signals sent to it (Linux: /proc/PID/status). */
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { waitFor } from '../wait-for.js';

/** Whether one of `signals` sent to `pid` still waits to be delivered, to the process or to its main thread. */
function pending(pid: number, signals: readonly NodeJS.Signals[]): boolean {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // Gone: nothing is pending any more.
    return false;
  }
  const masks = ['SigPnd', 'ShdPnd'].map((field) => BigInt(`0x${new RegExp(`^${field}:\\s*([0-9a-f]+)$`, 'm').exec(status)?.[1] ?? '0'}`));
  return masks.some((mask) => signals.some((signal) => ((mask >> BigInt(constants.signals[signal] - 1)) & 1n) === 1n));
}

/**
 * Resolves once the kernel has delivered every one of `signals` sent to
 * `pid`: a signal sent while the same one is still pending is merged with it,
 * so a test that means two signals waits for the first before the second.
 */
export function delivered(pid: number, ...signals: NodeJS.Signals[]): Promise<void> {
  return waitFor(`${signals.join(' and ')} delivered to ${pid}`, () => !pending(pid, signals));
}
