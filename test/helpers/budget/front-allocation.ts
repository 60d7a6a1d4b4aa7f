/**
 * The front's cost per request, counted in bytes the main thread allocates
 * rather than in seconds, so that a noisy machine cannot move it (issue 20's
 * budget): a fixed mix of requests, each kind sent a few hundred times, one
 * at a time, on one keep-alive connection, after a warm-up for the JIT, in a
 * process of its own (measured in one process, a kind's figure moves with the
 * kinds run before it, by up to 6%: they share its compiled code). Shared by test/process/front-allocation-budget.test.ts (which compares
 * with the committed baseline) and bench/http/front-allocation.ts (which writes
 * it).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

export type ProbeRequest = 'start' | 'stop' | 'exit';
export type ProbeReply =
  | { readonly kind: 'listening'; readonly port: number }
  | { readonly kind: 'started' }
  | { readonly kind: 'stopped'; readonly bytes: number; readonly collections: number };

/** One kind of request: its bytes on the wire, built from the request before (a created id). */
export interface RequestKind {
  readonly name: string;
  /** The settings of the service it runs against. */
  readonly env: Readonly<Record<string, string>>;
  /** The requests of one repetition, in order; each is answered before the next is sent. */
  readonly requests: readonly string[];
}

const json = (method: string, path: string, body: unknown): string => {
  const text = JSON.stringify(body);
  return `${method} ${path} HTTP/1.1\r\nHost: budget\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
};
const bare = (method: string, path: string): string => `${method} ${path} HTTP/1.1\r\nHost: budget\r\n\r\n`;

/** The mix: the catalogue's hot paths (issue 20's a, e, f) and a marketplace search. */
export const REQUEST_KINDS: readonly RequestKind[] = [
  { name: 'GET /products/5', env: {}, requests: [bare('GET', '/products/5')] },
  // The seed's count + 1 id: the created product is 11, and deleting it brings the count back to 10.
  { name: 'POST /products, DELETE it', env: {}, requests: [json('POST', '/products', { name: 'Budget', description: 'Counted', price: 9.5 }), bare('DELETE', '/products/11')] },
  { name: 'PUT /products/3', env: {}, requests: [json('PUT', '/products/3', { name: 'Kettle', description: 'Replaced', price: 45 })] },
  { name: 'GET /products?category=brewers&sort=price_asc', env: { MARKETPLACE: '1' }, requests: [bare('GET', '/products?category=brewers&sort=price_asc')] },
];

const PROBE = fileURLToPath(new URL('allocation-probe.js', import.meta.url));

/** Reads whole responses off one connection: each ends with its Content-Length's bytes after the blank line. */
class Responses {
  #buffer = Buffer.alloc(0);
  #waiting: (() => void) | undefined;
  constructor(socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#waiting?.();
    });
  }

  /** The next response's status. */
  async next(): Promise<number> {
    for (;;) {
      const end = this.#buffer.indexOf('\r\n\r\n');
      if (end !== -1) {
        const head = this.#buffer.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (this.#buffer.length >= end + 4 + length) {
          this.#buffer = this.#buffer.subarray(end + 4 + length);
          return Number(head.slice(9, 12));
        }
      }
      await new Promise<void>((resolve) => (this.#waiting = resolve));
    }
  }
}

async function reply<Kind extends ProbeReply['kind']>(child: ChildProcess, kind: Kind): Promise<Extract<ProbeReply, { kind: Kind }>> {
  for (;;) {
    const [message] = (await once(child, 'message')) as [ProbeReply];
    if (message.kind === kind) return message as Extract<ProbeReply, { kind: Kind }>;
  }
}

export interface KindCost {
  readonly name: string;
  /** Bytes the front's thread allocated per repetition of the kind (the median window). */
  readonly bytesPerRepetition: number;
}

/**
 * Measured on this project's machine, twelve runs of each size (six with a
 * core kept busy): at 300 + 3 x 200 the kinds' figures spread by at most 2%
 * (standard deviation 1.5% at worst), at 1500 + 3 x 1000 by at most 1.1%,
 * at 200 + 3 x 100 by up to 5%. Either of the first two leaves the 10% margin
 * five standard deviations or more from a false failure; the smaller costs a
 * third of the requests. A window of 200 counts a share of what every window
 * costs (the forced collection's aftermath) that one of 1000 spreads thinner,
 * and 300 repetitions warm the JIT less than 1500: the figures are 7 to 16%
 * higher than the larger size's, so the baseline is recorded at this size.
 */
const WARM_UP = 300;
const WINDOW = 200;
const WINDOWS = 3;

/** Measures one kind in a service of its own. */
export async function measureKind(kind: RequestKind): Promise<KindCost> {
  const child = fork(PROBE, [JSON.stringify(kind.env)], { execArgv: ['--expose-gc', '--min-semi-space-size=128', '--max-semi-space-size=128'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    const { port } = await reply(child, 'listening');
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const responses = new Responses(socket);
    const repeat = async (times: number): Promise<void> => {
      for (let index = 0; index < times; index++) {
        for (const request of kind.requests) {
          socket.write(request);
          const status = await responses.next();
          if (status >= 300) throw new Error(`${kind.name}: ${request.split('\r\n')[0] ?? ''} answered ${status}`);
        }
      }
    };
    await repeat(WARM_UP);
    const windows: number[] = [];
    for (let tries = 0; windows.length < WINDOWS; tries++) {
      if (tries === WINDOWS * 3) throw new Error(`${kind.name}: a collection ran in ${tries - windows.length} of ${tries} windows; raise the semi-space size`);
      child.send('start' satisfies ProbeRequest);
      await reply(child, 'started');
      await repeat(WINDOW);
      child.send('stop' satisfies ProbeRequest);
      const { bytes, collections } = await reply(child, 'stopped');
      // A collection inside the window freed part of what it allocated: measure again.
      if (collections === 0) windows.push(bytes / WINDOW);
    }
    socket.destroy();
    windows.sort((a, b) => a - b);
    return { name: kind.name, bytesPerRepetition: Math.round(windows[Math.floor(WINDOWS / 2)] as number) };
  } finally {
    child.send('exit' satisfies ProbeRequest);
    await once(child, 'exit');
  }
}
