/**
 * How the comparison's targets are judged and worded: met, missed or not
 * judged, and a margin the rounds leave open is flagged, never hidden.
 */

export interface Verdict {
  readonly met: boolean | undefined;
  readonly text: string;
}

export const verdictLine = ({ met, text }: Verdict): string => `- **${met === undefined ? 'not judged' : met ? 'met' : 'missed'}**: ${text}`;

/** Without rounds to compare, a verdict decided by less than this is flagged. */
export const NOISE = 0.05;

export type Range = readonly [number, number] | undefined;

/**
 * Whether the rounds leave a comparison undecided: `mine` scaled by `factor`
 * and `theirs` overlap, so some pairing of rounds would decide it the other
 * way. With a single round, a margin under NOISE counts as undecided.
 */
export function undecided(mine: Range, theirs: Range, factor: number, value: number, goal: number): boolean {
  if (mine !== undefined && theirs !== undefined && (mine[0] !== mine[1] || theirs[0] !== theirs[1])) {
    return mine[0] * factor <= theirs[1] && theirs[0] <= mine[1] * factor;
  }
  return Math.abs(value / goal - 1) < NOISE;
}

export const NOISY = ' (within noise: the rounds overlap, a repeat run may decide it the other way)';
