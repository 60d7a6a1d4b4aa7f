/**
 * Issue 30, item 4, first step: what one hop between the front's thread and
 * the store's thread costs today (a MessagePort's postMessage each way,
 * the commands as one JSON text and the results as strings, as
 * src/store/store-channel.ts sends them) against a shared-memory ring
 * (SharedArrayBuffer, Atomics.notify and Atomics.waitAsync, each side
 * draining what is there before it waits), with no store work in between:
 * the ceiling of what the ring could save per batch.
 *
 *   npm run build:tests && node build/bench/hop/hop-micro.js [--batches 20000] [--commands 1,10]
 *   taskset -c 1 node build/bench/hop/hop-micro.js   (both threads on one core, as the bench pins the server)
 *
 * Prints, per variant and batch size, round trips a second and the process's
 * CPU per round trip (both threads), the median of five windows.
 */
import { Worker, isMainThread, workerData, MessageChannel, type MessagePort } from 'node:worker_threads';
import { parseArgs } from 'node:util';

/** A ring of `SLOTS` slots of SLOT_BYTES each, one writer and one reader: [head, tail, wake] then the bytes. */
const SLOTS = 256;
const SLOT_BYTES = 4096;
const HEAD = 0;
const TAIL = 1;
const WAKE = 2;
const HEADER_INTS = 4;

interface Ring {
  readonly control: Int32Array;
  readonly lengths: Int32Array;
  readonly bytes: Uint8Array;
}

function newRing(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_INTS * 4 + SLOTS * 4 + SLOTS * SLOT_BYTES);
}

function ringOf(buffer: SharedArrayBuffer): Ring {
  return { control: new Int32Array(buffer, 0, HEADER_INTS), lengths: new Int32Array(buffer, HEADER_INTS * 4, SLOTS), bytes: new Uint8Array(buffer, HEADER_INTS * 4 + SLOTS * 4) };
}

/** Atomics.waitAsync (V8; Node 16 and later), not in this project's TypeScript lib yet. */
type WaitAsync = (array: Int32Array, index: number, value: number) => { readonly async: false; readonly value: string } | { readonly async: true; readonly value: Promise<string> };
const waitAsync = (Atomics as unknown as { readonly waitAsync: WaitAsync }).waitAsync;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Writes one message; wakes the reader only if it said it sleeps. */
function put(ring: Ring, text: string): void {
  const head = Atomics.load(ring.control, HEAD);
  const slot = head % SLOTS;
  const { written } = encoder.encodeInto(text, ring.bytes.subarray(slot * SLOT_BYTES, (slot + 1) * SLOT_BYTES));
  ring.lengths[slot] = written;
  Atomics.store(ring.control, HEAD, head + 1);
  if (Atomics.load(ring.control, WAKE) === 1) {
    Atomics.store(ring.control, WAKE, 0);
    Atomics.notify(ring.control, WAKE);
  }
}

/** Every message there now, oldest first. */
function drain(ring: Ring): string[] {
  const taken: string[] = [];
  let tail = Atomics.load(ring.control, TAIL);
  const head = Atomics.load(ring.control, HEAD);
  for (; tail < head; tail++) {
    const slot = tail % SLOTS;
    taken.push(decoder.decode(ring.bytes.subarray(slot * SLOT_BYTES, slot * SLOT_BYTES + (ring.lengths[slot] ?? 0))));
  }
  Atomics.store(ring.control, TAIL, tail);
  return taken;
}

/** Resolves once a message is there: at once if one is, else after the writer's notify (no spinning). */
async function whenReadable(ring: Ring): Promise<void> {
  for (;;) {
    if (Atomics.load(ring.control, TAIL) !== Atomics.load(ring.control, HEAD)) return;
    Atomics.store(ring.control, WAKE, 1);
    // Checked again after saying it sleeps: a put in between would not have notified.
    if (Atomics.load(ring.control, TAIL) !== Atomics.load(ring.control, HEAD)) {
      Atomics.store(ring.control, WAKE, 0);
      return;
    }
    const waited = waitAsync(ring.control, WAKE, 1);
    if (waited.async) await waited.value;
  }
}

interface WorkerSetup {
  readonly port: MessagePort;
  readonly toStore: SharedArrayBuffer;
  readonly toFront: SharedArrayBuffer;
}

/** The store's side: answers each batch of `n` commands with `n` result strings. */
function answer(text: string): string[] {
  const commands = JSON.parse(text) as unknown[];
  return commands.map((_, index) => `{"data":{"id":${index + 1},"name":"Espresso Machine","description":"15-bar pump","price":249.99}}`);
}

async function storeSide({ port, toStore, toFront }: WorkerSetup): Promise<void> {
  port.on('message', (text: string) => port.postMessage(answer(text)));
  const inbox = ringOf(toStore);
  const outbox = ringOf(toFront);
  for (;;) {
    await whenReadable(inbox);
    for (const text of drain(inbox)) put(outbox, JSON.stringify(answer(text)));
  }
}

if (!isMainThread) {
  void storeSide(workerData as WorkerSetup);
} else {
  await main();
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { batches: { type: 'string', default: '20000' }, commands: { type: 'string', default: '1,10' }, windows: { type: 'string', default: '5' } } });
  const batches = Number(values.batches);
  const sizes = values.commands.split(',').map(Number);
  const windows = Number(values.windows);
  const channel = new MessageChannel();
  const toStore = newRing();
  const toFront = newRing();
  const worker = new Worker(new URL(import.meta.url), { workerData: { port: channel.port2, toStore, toFront } satisfies WorkerSetup, transferList: [channel.port2], execArgv: process.execArgv });
  const port = channel.port1;
  const inbox = ringOf(toFront);
  const outbox = ringOf(toStore);
  const batchOf = (n: number): string => JSON.stringify(Array.from({ length: n }, (_, index) => ({ kind: 'products.get', id: index + 1 })));

  const viaPort = (text: string): Promise<string[]> => new Promise((resolve) => {
    port.once('message', resolve);
    port.postMessage(text);
  });
  const viaRing = async (text: string): Promise<string[]> => {
    put(outbox, text);
    await whenReadable(inbox);
    const [answered = '[]'] = drain(inbox);
    return JSON.parse(answered) as string[];
  };

  console.log(`node ${process.version}; ${batches} round trips a window, median of ${windows} windows; CPU is the whole process's (both threads)`);
  console.log('| hop | commands a batch | round trips/s | CPU µs a round trip |');
  console.log('|---|---|---|---|');
  for (const size of sizes) {
    const text = batchOf(size);
    for (const [name, hop] of [['postMessage', viaPort], ['shared-memory ring', viaRing]] as const) {
      const rates: number[] = [];
      const costs: number[] = [];
      for (let window = 0; window < windows; window++) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        for (let count = 0; count < batches; count++) {
          const results = await hop(text);
          if (results.length !== size) throw new Error(`${name}: ${results.length} results for ${size} commands`);
        }
        const elapsed = performance.now() - started;
        const used = process.cpuUsage(cpu);
        rates.push((batches / elapsed) * 1000);
        costs.push((used.user + used.system) / batches);
      }
      const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      console.log(`| ${name} | ${size} | ${Math.round(median(rates)).toLocaleString('en')} | ${median(costs).toFixed(1)} |`);
    }
  }
  await worker.terminate();
  port.close();
}
