/** The command line of issue 18's bench (order-streams.ts), read once. */
import { readScriptOptions } from '../harness/script-options.js';

export interface StreamsOptions {
  readonly streams: number;
  readonly rounds: number;
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  readonly unpinned: boolean;
  readonly write: boolean;
}

export function parseOptions(argv: readonly string[]): StreamsOptions {
  const read = readScriptOptions(
    argv,
    {
      '--streams': { fallback: 10_000, min: 0, unit: 'N' },
      '--rounds': { fallback: 3, min: 0, unit: 'N' },
      '--duration': { fallback: 5, min: 0, unit: 'S' },
      '--warmup': { fallback: 2, min: 0, unit: 'S' },
      '--connections': { fallback: 100, min: 0, unit: 'N' },
    },
    ['--unpinned', '--write'],
  );
  return {
    streams: read.count('--streams'),
    rounds: read.count('--rounds'),
    duration: read.count('--duration'),
    warmup: read.count('--warmup'),
    connections: read.count('--connections'),
    unpinned: read.flag('--unpinned'),
    write: read.flag('--write'),
  };
}
