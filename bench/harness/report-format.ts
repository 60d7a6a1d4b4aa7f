/**
 * What the report's sections share: how a figure, a ratio or a table is
 * written, how a case's row is found, and how a target's verdict is decided
 * and worded (a margin the rounds leave open is flagged, never hidden).
 */
import type { RoundsMeasurement } from '../http/rounds.js';
import type { CaseResult, RunRecord } from '../http/report.js';

export const integer = (value: number): string => (Number.isFinite(value) ? Math.round(value).toLocaleString('en') : '–');
export const fixed = (value: number | undefined, digits: number): string => (value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits));
export const ratio = (value: number | undefined): string => (value === undefined || !Number.isFinite(value) ? '–' : `${value.toFixed(2)}×`);
export const share = (value: number | undefined): string => (value === undefined || !Number.isFinite(value) ? '–' : `${Math.round(value * 100)}%`);
export const mebibytes = (bytes: number | undefined): string => (bytes === undefined ? '–' : `${Math.round(bytes / 1024 ** 2)} MB`);

/** CPU µs/request, with the range of the rounds when there were several. */
export function cpuCell(m: RoundsMeasurement): string {
  const range = m.rounds > 1 && m.cpuRange !== undefined ? ` (${fixed(m.cpuRange[0], 1)}–${fixed(m.cpuRange[1], 1)})` : '';
  return `${fixed(m.cpuMicrosPerRequest, 1)}${range}`;
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const escape = (cell: string): string => cell.replaceAll('|', '\\|');
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
}

/** A measurement that may be compared: present and without problems. */
export function valid(result: CaseResult | undefined): RoundsMeasurement | undefined {
  const m = result?.measurement;
  return m !== undefined && m.problems.length === 0 ? m : undefined;
}

export function find(record: RunRecord, scenarioId: string, serverName: string): CaseResult | undefined {
  return record.cases.find((c) => c.scenario.id === scenarioId && c.server.name === serverName);
}

export interface Verdict {
  readonly met: boolean | undefined;
  readonly text: string;
}

export const verdictLine = ({ met, text }: Verdict): string => `- **${met === undefined ? 'not judged' : met ? 'met' : 'missed'}**: ${text}`;

export function percent(value: number): string {
  const points = Math.abs(value * 100);
  return `${points.toFixed(points < 10 ? 1 : 0)}%`;
}

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
