/**
 * The charts beside bench/RESULTS.md's tables (issue 20): Vega-Lite specs
 * over a run's measurements, rendered to SVG by Vega's headless view (no
 * browser, no canvas) and written to bench/charts/, which the report links.
 * Written by every run that writes RESULTS.md, from that run's figures only,
 * which are kept beside them (figures.json): `node build/bench/http/charts.js`
 * (after `npm run build:tests`) draws the charts again from it, for a change
 * to a chart without a 45-minute run.
 *
 *   cpu-per-request.svg  the server's CPU per request, by scenario and server
 *   search-cost.svg      a search's CPU per request against the catalogue's size
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { valid, type RunRecord } from './run-record.js';

/** One bar or point: a valid measurement's CPU per request. */
interface CpuPoint {
  readonly scenario: string;
  readonly server: string;
  readonly size: number;
  readonly cpu: number;
}

/** What the charts draw, taken from a run once (figuresOf) and kept as figures.json. */
export interface ChartFigures {
  /** The run's start, YYYY-MM-DD. */
  readonly date: string;
  readonly rounds: number;
  readonly scenarioOrder: readonly string[];
  readonly serverOrder: readonly string[];
  readonly catalogue: readonly CpuPoint[];
  readonly search: readonly CpuPoint[];
}

export function figuresOf(record: RunRecord): ChartFigures {
  return {
    date: record.startedAt.toISOString().slice(0, 10),
    rounds: record.options.rounds,
    scenarioOrder: record.scenarios.map((scenario) => scenario.id),
    serverOrder: [...record.serverNames],
    catalogue: points(record, 'catalogue'),
    search: points(record, 'marketplace'),
  };
}

export interface Chart {
  /** The file's name in the charts folder. */
  readonly file: string;
  /** Its alternative text in the report. */
  readonly title: string;
  readonly spec: TopLevelSpec;
}

/** Rows that are valid and have a CPU figure, for the scenarios of `family`. */
function points(record: RunRecord, family: string): CpuPoint[] {
  const rows: CpuPoint[] = [];
  for (const result of record.cases) {
    if (result.scenario.family !== family) continue;
    const measured = valid(result);
    if (measured?.cpuMicrosPerRequest === undefined) continue;
    rows.push({ scenario: result.scenario.id, server: result.server.name, size: result.size, cpu: measured.cpuMicrosPerRequest });
  }
  return rows;
}

/** Grouped bars: a group per catalogue scenario, a bar per server; a logarithmic axis, as c and Express are a hundred times the rest. */
export function cpuChart(figures: ChartFigures): Chart | undefined {
  const values = figures.catalogue;
  if (values.length === 0) return undefined;
  return {
    file: 'cpu-per-request.svg',
    title: 'Server CPU per request (µs, lower is better), by scenario and server',
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title: { text: 'Server CPU per request', subtitle: `µs, lower is better, logarithmic; medians of ${figures.rounds} rounds, ${figures.date}` },
      data: { values },
      width: { step: 14 },
      height: 260,
      mark: { type: 'bar', tooltip: true },
      encoding: {
        x: { field: 'scenario', type: 'nominal', title: 'scenario', sort: [...figures.scenarioOrder], axis: { labelAngle: 0 } },
        xOffset: { field: 'server', type: 'nominal', sort: [...figures.serverOrder] },
        y: { field: 'cpu', type: 'quantitative', title: 'CPU µs per request', scale: { type: 'log' } },
        color: { field: 'server', type: 'nominal', sort: [...figures.serverOrder], legend: { orient: 'top', labelLimit: 300 } },
      },
    },
  };
}

/** Lines over the catalogue's size, both axes logarithmic, a panel per search (h, j, jr) and a line per server. */
export function searchChart(figures: ChartFigures): Chart | undefined {
  // h10k, h and h1M are one search at three sizes: the panel is the id without its size.
  const values = figures.search.map((point) => ({ ...point, search: point.scenario.replace(/(10k|1M)$/, '') }));
  if (values.length === 0) return undefined;
  return {
    file: 'search-cost.svg',
    title: 'Search CPU per request (µs) against the number of products, by search and server',
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title: { text: 'Search cost against catalogue size', subtitle: 'server CPU µs per request, both axes logarithmic' },
      data: { values },
      facet: { column: { field: 'search', type: 'nominal', title: 'search' } },
      spec: {
        width: 180,
        height: 200,
        mark: { type: 'line', point: true, tooltip: true },
        encoding: {
          x: { field: 'size', type: 'quantitative', scale: { type: 'log' }, title: 'products' },
          y: { field: 'cpu', type: 'quantitative', scale: { type: 'log' }, title: 'CPU µs per request' },
          color: { field: 'server', type: 'nominal', legend: { orient: 'top', labelLimit: 300 } },
        },
      },
    },
  };
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Renders the charts into `folder` and keeps their figures there; the report's lines that show them (paths relative to RESULTS.md). */
export async function writeCharts(figures: ChartFigures, folder: string, relative: string): Promise<Map<string, string>> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, FIGURES), `${JSON.stringify(figures, null, 1)}\n`);
  const links = new Map<string, string>();
  for (const chart of [cpuChart(figures), searchChart(figures)]) {
    if (chart === undefined) continue;
    writeFileSync(join(folder, chart.file), await renderSvg(chart.spec));
    links.set(chart.file, `![${chart.title}](${relative}/${chart.file})`);
  }
  return links;
}

const FIGURES = 'figures.json';

// Run as a script: the charts drawn again from the figures kept beside them.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const folder = fileURLToPath(new URL(import.meta.url.includes('/build/bench/') ? '../../../bench/charts' : '../charts', import.meta.url));
  const figures = JSON.parse(readFileSync(join(folder, FIGURES), 'utf8')) as ChartFigures;
  const written = await writeCharts(figures, folder, 'charts');
  process.stdout.write(`${[...written.keys()].join(', ')} drawn again in ${folder}\n`);
}
