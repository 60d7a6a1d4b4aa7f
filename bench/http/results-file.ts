/**
 * bench/RESULTS.md and bench/charts/ as a complete run of the comparison
 * writes them: its report replaces what is above the appended-sections
 * marker, and the other benches' dated sections below it are kept.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
export const CHARTS = fileURLToPath(new URL('../charts', import.meta.url));
/**
 * Where RESULTS.md's appended sections begin (other benches' runs, dated): a
 * complete run rewrites what is above it and keeps the rest. Found in
 * RESULTS.md by its exact text, which still names the harness's first place.
 */
const APPENDED_MARKER = '<!-- Appended sections: other benches add theirs below; a complete run of bench/run.ts rewrites only what is above. -->';

function appendedSections(): string {
  let previous = '';
  try {
    previous = readFileSync(RESULTS, 'utf8');
  } catch {
    // No results yet: nothing to keep.
  }
  const at = previous.indexOf(APPENDED_MARKER);
  return at === -1 ? `\n${APPENDED_MARKER}\n` : `\n${previous.slice(at)}`;
}

/** The run's report above the marker, the appended sections kept below it. */
export function writeResults(report: string): void {
  writeFileSync(RESULTS, `${report}\n${appendedSections()}`);
}
