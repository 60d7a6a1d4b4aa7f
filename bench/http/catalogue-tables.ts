/**
 * The report's catalogue part (issue 4's cases a–g, with a10 and a304): one
 * row per case and server with its ratios against the baseline (Fastify) and
 * the ceiling (bare node:http), and the mix's latency by request kind.
 */
import { fixed, integer, ratio, share, table } from '../harness/report-format.js';
import { cpuCell } from './rounds.js';
import { find, valid, type RunRecord } from './run-record.js';
import type { Scenario } from './scenario-types.js';

/** Issue 4's scenarios (a–g); the marketplace's have their own section. */
export function catalogueScenarios(record: RunRecord): Scenario[] {
  return record.scenarios.filter((scenario) => scenario.family === 'catalogue');
}

export function scenarioTable(record: RunRecord): string {
  const { baseline: b, ceiling: c } = record;
  // Each ratio against the ceiling sits beside the same ratio against the
  // baseline, so a row reads "this far from Fastify, this far from bare Node".
  const header = [
    'case', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req (range)',
    `req/s ÷ ${b}`, `req/s ÷ ${c}`, `CPU ÷ ${b}`, `CPU ÷ ${c}`, `p99 ÷ ${b}`,
    'CPU busy: server / load / others', 'errors', 'unexpected', 'checks',
  ];
  const rows: string[][] = [];
  for (const scenario of catalogueScenarios(record)) {
    const base = valid(find(record, scenario.id, b));
    const ceiling = valid(find(record, scenario.id, c));
    for (const name of record.serverNames) {
      const result = find(record, scenario.id, name);
      if (result === undefined) continue;
      const label = `${scenario.id} ${scenario.name}: ${scenario.describe(result.size)}`;
      const m = result.measurement;
      if (m === undefined) {
        rows.push([label, name, ...header.slice(3).map(() => '–'), `FAILED: ${result.failure ?? 'no measurement'}`]);
        continue;
      }
      const ok = m.problems.length === 0;
      const compare = (mine: number | undefined, theirs: number | undefined): string =>
        ratio(ok && mine !== undefined && theirs !== undefined ? mine / theirs : undefined);
      rows.push([
        label,
        name,
        integer(m.requestsPerSecond),
        fixed(m.p50Ms, 2),
        // Timed-out requests are missing from the latencies: p99 is a floor.
        `${m.errors > 0 ? '≥ ' : ''}${fixed(m.p99Ms, 2)}`,
        cpuCell(m),
        compare(m.requestsPerSecond, base?.requestsPerSecond),
        compare(m.requestsPerSecond, ceiling?.requestsPerSecond),
        compare(m.cpuMicrosPerRequest, base?.cpuMicrosPerRequest),
        compare(m.cpuMicrosPerRequest, ceiling?.cpuMicrosPerRequest),
        compare(m.p99Ms, base?.p99Ms),
        `${share(m.serverBusy)} / ${share(m.loadBusy)} / ${share(m.othersBusy)}`,
        String(m.errors),
        String(m.unexpected),
        ok ? ['ok', ...m.warnings].join('; ') : `INVALID: ${[...m.problems, ...m.warnings].join('; ')}`,
      ]);
    }
  }
  return table(header, rows);
}

export function focusTable(record: RunRecord, scenario: Scenario): string {
  const focus = scenario.focus as string;
  const baseKind = valid(find(record, scenario.id, record.baseline))?.kinds[focus];
  const rows: string[][] = [];
  for (const name of record.serverNames) {
    const m = find(record, scenario.id, name)?.measurement;
    if (m === undefined) continue;
    const kind = m.kinds[focus];
    const others = Object.entries(m.kinds).filter(([key]) => key !== focus);
    rows.push([
      name,
      integer(kind?.responses ?? Number.NaN),
      fixed(kind?.p50Ms, 2),
      fixed(kind?.p99Ms, 2),
      ratio(kind !== undefined && baseKind !== undefined && m.problems.length === 0 ? kind.p99Ms / baseKind.p99Ms : undefined),
      others.map(([, other]) => `${other.label} ${fixed(other.p99Ms, 2)} (${integer(other.responses)})`).join(', '),
    ]);
  }
  return table(['server', 'by-id responses', 'by-id p50 ms', 'by-id p99 ms', `by-id p99 ÷ ${record.baseline}`, 'other kinds: p99 ms (responses)'], rows);
}
