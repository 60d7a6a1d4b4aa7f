/**
 * bench/http/charts.ts: the charts beside bench/RESULTS.md are drawn from a run's
 * valid measurements only, one mark per (scenario, server), and render to SVG
 * without a browser. A run's record here is the few fields the charts read.
 */
import test from 'ava';
import { cpuChart, figuresOf, renderSvg, searchChart } from '../../../bench/http/charts.js';
import type { CaseResult, RunRecord } from '../../../bench/http/run-record.js';

function result(scenario: string, family: string, server: string, size: number, cpu: number, problems: string[] = []): CaseResult {
  return { scenario: { id: scenario, family }, server: { name: server }, size, measurement: { cpuMicrosPerRequest: cpu, problems } } as unknown as CaseResult;
}

const record = {
  startedAt: new Date('2026-11-25T08:00:00Z'),
  options: { rounds: 3 },
  scenarios: [{ id: 'a' }, { id: 'e' }],
  serverNames: ['catalogue', 'fastify'],
  cases: [
    result('a', 'catalogue', 'catalogue', 10, 13.3),
    result('a', 'catalogue', 'fastify', 10, 12.3),
    result('e', 'catalogue', 'catalogue', 10, 19.0),
    result('e', 'catalogue', 'fastify', 10, 14.0, ['a wrong body']),
    result('h10k', 'marketplace', 'catalogue-marketplace', 10_000, 20),
    result('h', 'marketplace', 'catalogue-marketplace', 100_000, 22),
    result('h1M', 'marketplace', 'catalogue-marketplace', 1_000_000, 25),
    result('j1M', 'marketplace', 'fastify-marketplace', 1_000_000, 9_000),
  ],
} as unknown as RunRecord;

test('the CPU chart has a bar per valid (scenario, server) and leaves an invalid row out', async (t) => {
  const chart = cpuChart(figuresOf(record));
  if (chart === undefined) return t.fail('no chart');
  const values = (chart.spec.data as { values: { scenario: string; server: string; cpu: number }[] }).values;
  t.deepEqual(
    values.map(({ scenario, server, cpu }) => [scenario, server, cpu]),
    [
      ['a', 'catalogue', 13.3],
      ['a', 'fastify', 12.3],
      ['e', 'catalogue', 19.0],
    ],
  );
  const svg = await renderSvg(chart.spec);
  t.true(svg.startsWith('<svg'), 'an SVG document');
  t.is((svg.match(/aria-roledescription="bar"/g) ?? []).length, 3, 'three bars');
  for (const label of ['catalogue', 'fastify', 'Server CPU per request']) t.true(svg.includes(label), label);
});

test('the search chart puts the sizes of one search on one line, a panel per search', async (t) => {
  const chart = searchChart(figuresOf(record));
  if (chart === undefined) return t.fail('no chart');
  const values = (chart.spec.data as { values: { search: string; size: number }[] }).values;
  t.deepEqual(
    values.map(({ search, size }) => [search, size]),
    [
      ['h', 10_000],
      ['h', 100_000],
      ['h', 1_000_000],
      ['j', 1_000_000],
    ],
  );
  const svg = await renderSvg(chart.spec);
  t.true(svg.includes('Search cost against catalogue size'));
  t.is(cpuChart(figuresOf({ ...record, cases: [] })), undefined, 'no chart without figures');
});
