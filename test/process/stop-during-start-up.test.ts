/**
 * A stop at any moment of the start-up (issue 19, item 4): an orchestrator
 * sends SIGTERM whenever a rolling deploy needs it, and `node dist/main.js`
 * used to die by it (exit 143, not a line, DATA_DIR's LOCK left) until it
 * listened, about half a second in. Now the process takes SIGTERM and SIGINT
 * before it loads anything: a stop before it serves stops the store thread,
 * gives DATA_DIR back, logs one line and exits 0.
 *
 * Only Node's own start comes before that first line, and a signal then still
 * ends the process by default. To know when the service has taken its
 * signals, without any hook in the service, the child runs with a preload of
 * this test's own (PROBE) that writes `taken` on fd 3 as soon as SIGTERM
 * and SIGINT both have a listener. The delays are counted from there: each one must exit 0,
 * whichever phase it falls on, so a loaded machine moves a signal to another
 * phase but never changes the verdict.
 */
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { childEnv, MAIN, PROCESS_CEILING_MS } from '../helpers/service/service.js';
import { startOn, tempDir } from '../helpers/faults/journal-files.js';
import { call, dataOf, listProducts, type Product } from '../helpers/api/product-api.js';
import { EXPECT_CONTINUE, continued, finalResponse, untilRefused } from '../helpers/service/in-flight.js';
import { delivered } from '../helpers/service/signals.js';

/** Written once both listeners are in place, so `taken` means either signal from now on reaches the service. */
const PROBE = `data:text/javascript,${encodeURIComponent(`
import { writeSync } from 'node:fs';
const on = process.on;
let told = false;
process.on = function (...args) {
  const result = on.apply(this, args);
  if (!told && process.listenerCount('SIGTERM') > 0 && process.listenerCount('SIGINT') > 0) {
    told = true;
    writeSync(3, 'taken\\n');
  }
  return result;
};
`)}`;

/** Written on fd 3 once something listens for process.stdin's data: hash-password waits for the password. */
const STDIN_PROBE = `data:text/javascript,${encodeURIComponent(`
import { writeSync } from 'node:fs';
const stdin = Object.getOwnPropertyDescriptor(process, 'stdin');
let hooked = false;
Object.defineProperty(process, 'stdin', { ...stdin, get() {
  const stream = stdin.get.call(this);
  if (!hooked) {
    hooked = true;
    stream.on('newListener', (event) => (event === 'readable' || event === 'data') && writeSync(3, 'reading\\n'));
  }
  return stream;
} });
`)}`;

const STOPPED_EARLY = 'stopped during start-up, before serving anything';
const STOPPING = 'stopping: no new connections, finishing requests in flight';

interface Launched {
  readonly pid: number;
  readonly kill: (signal?: NodeJS.Signals) => void;
  /** Resolves when the service has taken its signals (never, if it dies before). */
  readonly taken: Promise<void>;
  readonly listening: Promise<void>;
  /** How the process ended, with everything it wrote. */
  readonly ended: Promise<Ending>;
  wasTaken(): boolean;
  stdout(): string;
}

interface Ending {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The log lines' messages and signals, in order. */
  readonly lines: readonly { readonly msg: string; readonly signal?: string }[];
  /** Milliseconds from the spawn to what the test saw, for a failure's message. */
  readonly timeline: string;
}

function launch(env: Readonly<Record<string, string>> = {}): Launched {
  const child = spawn(process.execPath, ['--import', PROBE, MAIN, '--port', '0'], { env: childEnv({ LOG_LEVEL: 'info', ...env }), stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let taken = false;
  const spawnedAt = performance.now();
  const events: string[] = [];
  const mark = (event: string): number => events.push(`${event} ${Math.round(performance.now() - spawnedAt)}`);
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    mark('stdout');
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const probe = child.stdio[3] as NodeJS.ReadableStream;
  const ceiling = setTimeout(() => child.kill('SIGKILL'), PROCESS_CEILING_MS);
  const ended = once(child, 'close').then(([code, signal]) => {
    clearTimeout(ceiling);
    const lines = stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; signal?: string })
      .map(({ msg, signal: by }) => (by === undefined ? { msg } : { msg, signal: by }));
    mark('closed');
    return { code: code as number | null, signal: signal as NodeJS.Signals | null, stdout, stderr, lines, timeline: events.join(', ') };
  });
  return {
    pid: child.pid ?? 0,
    kill: (signal = 'SIGTERM') => {
      mark(signal);
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    taken: new Promise((resolve) =>
      probe.on('data', () => {
        mark('taken');
        taken = true;
        resolve();
      }),
    ),
    listening: new Promise((resolve) => child.stdout?.on('data', () => stdout.includes('listening on') && resolve())),
    ended,
    wasTaken: () => taken,
    stdout: () => stdout,
  };
}

/** When the SIGTERM goes: at the spawn, a delay after the service took its signals, or once it listens. */
type Moment = { readonly at: 'spawn' } | { readonly at: 'taken'; readonly afterMs: number } | { readonly at: 'listening' };

const describe = (moment: Moment): string => (moment.at === 'taken' ? `${moment.afterMs} ms after it took its signals` : moment.at === 'spawn' ? 'at the spawn' : 'once it listens');

async function stopAt(moment: Moment, env: Readonly<Record<string, string>> = {}): Promise<Ending & { readonly taken: boolean }> {
  const service = launch(env);
  if (moment.at === 'taken') {
    await Promise.race([service.taken, service.ended]);
    // The moment is the subject: a delay counted from a condition (the signals taken), a sweep across the start-up's phases.
    await sleep(moment.afterMs);
  } else if (moment.at === 'listening') await Promise.race([service.listening, service.ended]);
  service.kill('SIGTERM');
  const ending = await service.ended;
  return { ...ending, taken: service.wasTaken() };
}

type Stop = 'during start-up' | 'after listening';

/** A clean stop: exit 0, and the one line of a stop before serving or the two of a stop after; returns which. */
function assertCleanStop(t: ExecutionContext, ending: Ending, what: string): Stop | undefined {
  t.deepEqual({ code: ending.code, signal: ending.signal }, { code: 0, signal: null }, `${what} (${ending.timeline}): ${ending.stderr}`);
  const messages = ending.lines.map((line) => line.msg).filter((msg) => msg !== 'journal recovered');
  if (ending.stdout === '') {
    t.deepEqual(messages, [STOPPED_EARLY], `${what}: never listening, so one line that it stopped during start-up`);
    t.is(ending.lines.find((line) => line.msg === STOPPED_EARLY)?.signal, 'SIGTERM', what);
    return 'during start-up';
  }
  t.regex(ending.stdout, /^catalogue listening on http:\/\/127\.0\.0\.1:\d+\n$/, what);
  t.deepEqual(messages, [STOPPING, 'stopped'], `${what}: listening, so the stop of a running service`);
  return 'after listening';
}

/**
 * A SIGTERM before the service has run its first line (Node's own start)
 * ends the process by the signal, as Node does; the service had claimed
 * nothing yet. Taken, it is a clean stop.
 */
function assertSignalAtSpawn(t: ExecutionContext, ending: Ending & { readonly taken: boolean }): void {
  if (ending.taken) {
    assertCleanStop(t, ending, 'at the spawn, once taken');
    return;
  }
  t.deepEqual({ code: ending.code, signal: ending.signal, stdout: ending.stdout, stderr: ending.stderr }, { code: null, signal: 'SIGTERM', stdout: '', stderr: '' }, 'not taken yet: ended by the signal before doing anything');
}

const SWEEP_MS = [0, 5, 20, 50, 100, 200, 300];

test('SIGTERM at any moment of start-up: exit 0 and one line once the signals are taken, the first of them before the service listens', async (t) => {
  const moments: Moment[] = [{ at: 'spawn' }, ...SWEEP_MS.map((afterMs) => ({ at: 'taken', afterMs }) as const), { at: 'listening' }];
  const endings = await Promise.all(moments.map((moment) => stopAt(moment)));
  const stops = new Map<string, Stop | undefined>();
  endings.forEach((ending, index) => {
    const moment = moments[index] as Moment;
    if (moment.at === 'spawn') assertSignalAtSpawn(t, ending);
    else stops.set(describe(moment), assertCleanStop(t, ending, describe(moment)));
  });
  // The signals are taken before anything loads, half a second of work before the service listens.
  t.is(stops.get(describe({ at: 'taken', afterMs: 0 })), 'during start-up', `a SIGTERM as soon as the signals are taken finds the service still starting (${endings[1]?.timeline ?? ''})`);
  t.is(stops.get('once it listens'), 'after listening');
});

test('SIGINT during start-up is the same clean stop', async (t) => {
  const service = launch({ MARKETPLACE: '1' });
  await Promise.race([service.taken, service.ended]);
  service.kill('SIGINT');
  const ending = await service.ended;
  t.deepEqual({ code: ending.code, signal: ending.signal }, { code: 0, signal: null }, ending.stderr);
  t.is(ending.stdout, '', 'stopped before listening');
  t.deepEqual(ending.lines, [{ msg: STOPPED_EARLY, signal: 'SIGINT' }]);
});

test('more signals while stopping during start-up: still one stop, one line, exit 0', async (t) => {
  const service = launch();
  await Promise.race([service.taken, service.ended]);
  // Each one delivered before the next is sent, while the first one's stop goes on.
  service.kill('SIGTERM');
  await delivered(service.pid, 'SIGTERM');
  service.kill('SIGTERM');
  await delivered(service.pid, 'SIGTERM');
  service.kill('SIGINT');
  const ending = await service.ended;
  t.is(assertCleanStop(t, ending, 'three signals'), 'during start-up');
});

test('a second signal while a running service drains: the request in flight is answered, one stop, exit 0', async (t) => {
  const service = launch();
  await Promise.race([service.listening, service.ended]);
  const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(service.stdout())?.[1]);
  const body = JSON.stringify({ name: 'Late', description: 'sent across three signals', price: 3 });
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let response = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (response += chunk));
  // Headers and part of the body, taken in; the signal; once the drain has begun, two more, and once
  // they are delivered, the rest of the body.
  socket.write(`POST /products HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${EXPECT_CONTINUE}Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
  await continued(socket);
  service.kill('SIGTERM');
  await untilRefused(port);
  service.kill('SIGTERM');
  service.kill('SIGINT');
  await delivered(service.pid, 'SIGTERM', 'SIGINT');
  socket.write(body.slice(10));
  const ending = await service.ended;
  socket.destroy();
  t.regex(finalResponse(response), /^HTTP\/1\.1 201 Created/);
  t.is(assertCleanStop(t, ending, 'three signals while draining'), 'after listening');
});

const ENDING_MOMENTS: Moment[] = [{ at: 'spawn' }, { at: 'taken', afterMs: 0 }, { at: 'taken', afterMs: 60 }, { at: 'taken', afterMs: 200 }];

test('with DATA_DIR, a stop during start-up gives the folder back (no LOCK left) and loses nothing: the next start serves the data, nothing cut', async (t) => {
  const dataDir = tempDir(t, 'stop-during-start-up-');
  const lock = join(dataDir, 'LOCK');
  const first = await startOn(dataDir);
  const made: Product[] = [];
  for (const name of ['Kept across early stops', 'Also kept']) {
    const created = await call(first, 'POST', '/products', { json: { name, description: 'journaled', price: 4.5 } });
    t.is(created.status, 201);
    made.push(dataOf<Product>(created));
  }
  t.deepEqual(await first.stop(), { code: 0, signal: null });
  t.false(existsSync(lock));

  for (const moment of ENDING_MOMENTS) {
    const ending = await stopAt(moment, { DATA_DIR: dataDir });
    if (moment.at === 'spawn') assertSignalAtSpawn(t, ending);
    else assertCleanStop(t, ending, describe(moment));
    t.false(existsSync(lock), `${describe(moment)}: the LOCK is gone`);
  }

  const last = await startOn(dataDir);
  t.deepEqual((await listProducts(last)).slice(-2), made);
  t.is(last.stderr(), '', 'no torn write to cut, no warning');
  t.deepEqual(await last.stop(), { code: 0, signal: null });
  t.false(existsSync(lock));
});

test('hash-password keeps Node default: SIGTERM while it waits for a password on stdin ends it at once', async (t) => {
  const child = spawn(process.execPath, ['--import', STDIN_PROBE, MAIN, 'hash-password'], { env: childEnv(), stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
  const ended = once(child, 'close');
  const ceiling = setTimeout(() => child.kill('SIGKILL'), PROCESS_CEILING_MS);
  let reading = false;
  await Promise.race([once(child.stdio[3] as NodeJS.ReadableStream, 'data').then(() => (reading = true)), ended]);
  child.kill('SIGTERM');
  const [code, signal] = (await ended) as [number | null, NodeJS.Signals | null];
  clearTimeout(ceiling);
  t.true(reading, 'the command was reading stdin when the signal came');
  t.deepEqual({ code, signal }, { code: null, signal: 'SIGTERM' });
});

