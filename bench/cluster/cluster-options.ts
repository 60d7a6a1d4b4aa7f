/**
 * The cluster bench's command line, read once, and the load settings of its
 * windows.
 */
import type { LoadSettings } from '../harness/load.js';
import { readScriptOptions } from '../harness/script-options.js';

export interface ClusterOptions {
  readonly rounds: number;
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  readonly lagRate: number;
  readonly capacityRate: number;
  readonly kills: number;
  readonly lease: number;
  readonly unpinned: boolean;
  readonly control: boolean;
  readonly write: boolean;
}

export function readClusterOptions(argv: readonly string[]): ClusterOptions {
  const read = readScriptOptions(
    argv,
    {
      '--rounds': { fallback: 3, min: 1, unit: 'N' },
      '--duration': { fallback: 5, min: 1, unit: 'S' },
      '--warmup': { fallback: 2, min: 1, unit: 'S' },
      '--connections': { fallback: 100, min: 1, unit: 'N' },
      '--lag-rate': { fallback: 1000, min: 1, unit: 'N' },
      '--capacity-rate': { fallback: 3000, min: 1, unit: 'N' },
      '--kills': { fallback: 10, min: 1, unit: 'N' },
      // The service takes LEASE_SECONDS from 2 (load-config.ts): a shorter lease made every member refuse to start, after the capacity and lag windows had run.
      '--lease': { fallback: 2, min: 2, unit: 'S' },
    },
    ['--unpinned', '--control', '--write'],
  );
  return {
    rounds: read.count('--rounds'),
    duration: read.count('--duration'),
    warmup: read.count('--warmup'),
    connections: read.count('--connections'),
    lagRate: read.count('--lag-rate'),
    capacityRate: read.count('--capacity-rate'),
    kills: read.count('--kills'),
    lease: read.count('--lease'),
    unpinned: read.flag('--unpinned'),
    control: read.flag('--control'),
    write: read.flag('--write'),
  };
}

/** A window of the bench: settled after its warm-up, at `rate` requests a second or as fast as the writer answers. */
export const loadSettings = (options: ClusterOptions, rate?: number): LoadSettings => ({
  connections: options.connections,
  duration: options.duration,
  warmup: options.warmup,
  requests: undefined,
  settle: true,
  ...(rate === undefined ? {} : { rate }),
});
