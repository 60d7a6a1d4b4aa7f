/**
 * How every bench writes its figures into markdown: a number, a ratio, a
 * share of a core, a size, a duration, a table.
 */

export const integer = (value: number): string => (Number.isFinite(value) ? Math.round(value).toLocaleString('en') : '–');
export const fixed = (value: number | undefined, digits: number): string => (value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits));
export const ratio = (value: number | undefined): string => (value === undefined || !Number.isFinite(value) ? '–' : `${value.toFixed(2)}×`);
export const share = (value: number | undefined): string => (value === undefined || !Number.isFinite(value) ? '–' : `${Math.round(value * 100)}%`);
export const mebibytes = (bytes: number | undefined): string => (bytes === undefined ? '–' : `${Math.round(bytes / 1024 ** 2)} MB`);

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

export function percent(value: number): string {
  const points = Math.abs(value * 100);
  return `${points.toFixed(points < 10 ? 1 : 0)}%`;
}
