/**
 * The harness's command line, checked once at start: a bad option stops the
 * run with a message that names it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ShopSize } from './scenario-types.js';

export interface BenchOptions {
  /** A few hundred requests per case, small collections, nothing written. */
  readonly smoke: boolean;
  /** Flags that add optional servers (`--with-bearer`). */
  readonly serverFlags: ReadonlySet<string>;
  /** No taskset: every server may use every core, beside the load generator. */
  readonly unpinned: boolean;
  readonly connections: number;
  readonly duration: number;
  /** Requests per case instead of a `duration` window (the smoke run's); undefined for the window. */
  readonly requests: number | undefined;
  readonly warmup: number;
  /** Seconds to wait at most, before each case, for the machine to be quiet. */
  readonly quietWait: number;
  /** Start each server while the one before it is measured (smoke only: it disturbs the window). */
  readonly startAhead: boolean;
  /** Hand a server on from a scenario that left it holding what it found to the next that needs the same (smoke only: server-lineup.ts). */
  readonly keepServers: boolean;
  /** Measurements per server and case; the report gives their medians. */
  readonly rounds: number;
  /** The large collection of scenarios c, d and g. */
  readonly largeSize: number;
  /** The marketplace search scenarios' collection sizes. */
  readonly shopSizes: Readonly<Record<ShopSize, number>>;
  /** Orders placed before scenario kM's window (the checkout's flatness case). */
  readonly preplaced: number;
  /** Customers in kM's server: twice the connections order, the rest only register; undefined: twice the connections. */
  readonly customers: number | undefined;
  /** Products seeded into kM's server before its customers (the memory target's catalogue); 0: only the checkout's own. */
  readonly checkoutProducts: number;
  /** The collection sizes of the scaling run; empty to skip it. */
  readonly scalingSizes: readonly number[];
  /** Scenario letters to run; undefined for all. */
  readonly scenarios: readonly string[] | undefined;
  /** Server names to run; undefined for all (flagged ones only when flagged). */
  readonly servers: readonly string[] | undefined;
  /** Another build's dist directory, run beside this one as `<service>-baseline` (--baseline-dist). */
  readonly baselineDist: string | undefined;
  /** Everything was run pinned, with the standard sizes: only such a run is written to RESULTS.md. */
  readonly complete: boolean;
}

export class OptionError extends Error {
  override readonly name = 'OptionError';
}

export const USAGE = `usage: npm run bench -- [options]
  --smoke               a few seconds in all: 50 requests per case, small collections, servers handed on between cases, RESULTS.md untouched
  --with-bearer         add catalogue+bearer (PROTECT="GET /products/:id=bearer", token from POST /login)
  --unpinned            no taskset: servers may use every core (a worker beside its front), the load generator too; RESULTS.md untouched
  --duration SECONDS    measured seconds per round (default 5; smoke: --requests instead)
  --requests N          measure N requests per round instead of a timed window (default none; smoke 50)
  --warmup SECONDS      warm-up seconds before each round (default 2; smoke 0)
  --rounds N            rounds per server and case, servers taking turns; medians are reported (default 3; smoke 1)
  --connections N       concurrent connections (default 100; smoke 5)
  --quiet-wait SECONDS  before each round, wait up to this long for other work on the machine to pause (default 5; smoke 0)
  --large N             products in scenarios c, d and g (default 10000; smoke 200)
  --scaling LIST        collection sizes of the scaling run, e.g. 10,10000 or none (default 10,10000,1000000; smoke 10,200)
  --shop-sizes S,M,L    products in h10k, in h and j, and in h1M (default 10000,100000,1000000; smoke 1300,1300,1300)
  --preplaced N         orders placed and paid before scenario kM's window (default 50000; smoke 100)
  --customers N         customers in kM's server: twice --connections log in, get an address and order, the rest only register (default and least: twice --connections)
  --checkout-products N products seeded into kM's server before its customers, as h seeds them (default 0)
  --scenarios LIST      only these scenario letters, e.g. a,d
  --servers LIST        only these servers, e.g. catalogue,fastify
  --baseline-dist DIR   also run another build of the service (DIR/main.js, e.g. /tmp/base/dist) as catalogue-baseline
                        (and catalogue-marketplace-baseline...): an A/B comparison in one run; RESULTS.md untouched`;

const FULL = {
  duration: 5,
  requests: undefined,
  warmup: 2,
  rounds: 3,
  connections: 100,
  quietWait: 5,
  largeSize: 10_000,
  scalingSizes: [10, 10_000, 1_000_000],
  shopSizes: { small: 10_000, standard: 100_000, million: 1_000_000 },
  preplaced: 50_000,
} as const;
// The smoke run only proves the bench still works, in a few seconds inside
// `npm test`: no warm-up, one round, few connections, small collections, and
// a count of requests rather than a window. On a busy machine a 0.25 s window
// once ended before the mix's first PUT was answered, which failed the run; a
// count only takes longer. The mix's seeded choices put six PUTs and four
// lists in the first 50 requests; 5 connections give each of them ten, as
// many as a10 pipelines (autocannon did not finish a10 when a connection's
// share of the count was smaller than its pipeline).
// The search sizes stay just large enough for scenario h's third page of
// twenty in each of twenty categories (about 65 products each at 1,300), and
// are one size, so that one seeded process per server serves every search
// case (keepServers).
const SMOKE = {
  duration: FULL.duration,
  requests: 50,
  warmup: 0,
  rounds: 1,
  connections: 5,
  quietWait: 0,
  largeSize: 200,
  scalingSizes: [10, 200],
  shopSizes: { small: 1_300, standard: 1_300, million: 1_300 },
  preplaced: 100,
} as const;

function positiveNumber(option: string, raw: string, { integer, min }: { integer: boolean; min: number }): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new OptionError(`${option} must be ${integer ? 'an integer' : 'a number'} of at least ${min} (got "${raw}")`);
  }
  return value;
}

function list(option: string, raw: string): string[] {
  const items = raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
  if (items.length === 0) throw new OptionError(`${option} needs a comma-separated list (got "${raw}")`);
  return items;
}

/** What the command line is checked against: the scenarios, the servers, and the flag each optional server needs. */
export interface KnownNames {
  readonly scenarios: readonly string[];
  readonly servers: readonly string[];
  readonly serverFlags: ReadonlyMap<string, string>;
  /** The option whose value (a dist directory) adds the baseline servers, so stands for their flag. */
  readonly baselineFlag: string;
}

const SERVER_FLAGS = ['--with-bearer'];

function shopSizes(raw: string): Record<ShopSize, number> {
  const sizes = list('--shop-sizes', raw).map((item) => positiveNumber('--shop-sizes', item, { integer: true, min: 11 }));
  const [small, standard, million] = sizes;
  if (sizes.length !== 3 || small === undefined || standard === undefined || million === undefined) throw new OptionError(`--shop-sizes needs three sizes, for h10k, for h and j, and for h1M (got "${raw}")`);
  return { small, standard, million };
}

export function parseOptions(args: readonly string[], known: KnownNames): BenchOptions {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const takesValue = new Set(['--duration', '--requests', '--warmup', '--quiet-wait', '--rounds', '--connections', '--large', '--scaling', '--shop-sizes', '--preplaced', '--customers', '--checkout-products', '--scenarios', '--servers', known.baselineFlag]);
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '--smoke' || name === '--unpinned' || name === '--help' || SERVER_FLAGS.includes(name)) {
      flags.add(name);
    } else if (takesValue.has(name)) {
      const value = inline ?? args[++index];
      if (value === undefined) throw new OptionError(`${name} needs a value`);
      values.set(name, value);
    } else {
      throw new OptionError(`unknown option "${arg}"`);
    }
  }
  if (flags.has('--help')) throw new OptionError('');

  const baselineDist = values.get(known.baselineFlag);
  if (baselineDist !== undefined) {
    if (!existsSync(join(baselineDist, 'main.js'))) throw new OptionError(`${known.baselineFlag}: no main.js in "${baselineDist}" (build the other commit there first)`);
    flags.add(known.baselineFlag);
  }
  const smoke = flags.has('--smoke');
  const base = smoke ? SMOKE : FULL;
  const read = <T>(option: string, parse: (raw: string) => T, fallback: T): T => {
    const raw = values.get(option);
    return raw === undefined ? fallback : parse(raw);
  };
  const scenarios = read('--scenarios', (raw) => list('--scenarios', raw), undefined);
  for (const id of scenarios ?? []) if (!known.scenarios.includes(id)) throw new OptionError(`--scenarios: no scenario "${id}" (there are ${known.scenarios.join(', ')})`);
  const servers = read('--servers', (raw) => list('--servers', raw), undefined);
  for (const name of servers ?? []) {
    if (!known.servers.includes(name)) throw new OptionError(`--servers: no server "${name}" (there are ${known.servers.join(', ')})`);
    const flag = known.serverFlags.get(name);
    if (flag !== undefined && !flags.has(flag)) throw new OptionError(`--servers: ${name} runs only with ${flag}`);
  }
  const largeSize = read('--large', (raw) => positiveNumber('--large', raw, { integer: true, min: 11 }), base.largeSize);
  const scalingSizes = read(
    '--scaling',
    (raw) => (raw === 'none' ? [] : list('--scaling', raw).map((item) => positiveNumber('--scaling', item, { integer: true, min: 10 }))),
    [...base.scalingSizes],
  );
  const shop = read('--shop-sizes', shopSizes, { ...base.shopSizes });
  const connections = read('--connections', (raw) => positiveNumber('--connections', raw, { integer: true, min: 1 }), base.connections);
  if (values.has('--duration') && values.has('--requests')) throw new OptionError('--duration and --requests exclude each other: a round is a timed window or a count');
  // An explicit --duration asks for a timed window, in smoke runs too.
  const requests = read('--requests', (raw) => positiveNumber('--requests', raw, { integer: true, min: 1 }), values.has('--duration') ? undefined : base.requests);
  // autocannon gives every connection a share of the count: each needs one.
  if (requests !== undefined && requests < connections) throw new OptionError(`--requests must be at least --connections (${connections}), got ${requests}`);
  const options = {
    smoke,
    serverFlags: new Set([...flags].filter((flag) => SERVER_FLAGS.includes(flag) || flag === known.baselineFlag)),
    unpinned: flags.has('--unpinned'),
    startAhead: smoke,
    keepServers: smoke,
    connections,
    duration: read('--duration', (raw) => positiveNumber('--duration', raw, { integer: false, min: 0.1 }), base.duration),
    requests,
    warmup: read('--warmup', (raw) => positiveNumber('--warmup', raw, { integer: false, min: 0 }), base.warmup),
    quietWait: read('--quiet-wait', (raw) => positiveNumber('--quiet-wait', raw, { integer: false, min: 0 }), base.quietWait),
    rounds: read('--rounds', (raw) => positiveNumber('--rounds', raw, { integer: true, min: 1 }), base.rounds),
    largeSize,
    scalingSizes,
    shopSizes: shop,
    preplaced: read('--preplaced', (raw) => positiveNumber('--preplaced', raw, { integer: true, min: 1 }), base.preplaced),
    customers: read('--customers', (raw) => positiveNumber('--customers', raw, { integer: true, min: connections * 2 }), undefined),
    checkoutProducts: read('--checkout-products', (raw) => positiveNumber('--checkout-products', raw, { integer: true, min: 11 }), 0),
    scenarios,
    servers,
    baselineDist,
  };
  // The committed results are the pinned comparison the targets assume; an
  // unpinned run answers another question and must not replace them.
  const complete =
    !smoke &&
    !options.unpinned &&
    scenarios === undefined &&
    servers === undefined &&
    baselineDist === undefined &&
    largeSize === FULL.largeSize &&
    scalingSizes.join(',') === FULL.scalingSizes.join(',') &&
    options.preplaced === FULL.preplaced &&
    options.customers === undefined &&
    options.checkoutProducts === 0 &&
    Object.values(shop).join(',') === Object.values(FULL.shopSizes).join(',');
  return { ...options, complete };
}
