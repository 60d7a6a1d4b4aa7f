// The part of autocannon 9's programmatic API the harness uses (the package
// ships no types; see its README, "API").
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    type Context = Record<string, unknown>;

    interface Request {
      method?: string | undefined;
      path?: string | undefined;
      body?: string | Buffer | undefined;
      headers?: Record<string, string> | undefined;
      /** Called before each send of this request; a falsy return restarts the sequence. */
      setupRequest?: ((request: Request, context: Context) => Request | undefined) | undefined;
      onResponse?: ((status: number, body: string, context: Context, headers: Record<string, string | string[]>) => void) | undefined;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Stop after this many requests instead of after `duration`. */
      amount?: number;
      /** Requests per second over all connections; latencies are corrected for coordinated omission. */
      overallRate?: number;
      pipelining?: number;
      /** Seconds to wait for a response. */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      requests?: Request[];
      /** A run before the measured one, with these options overriding the others. */
      warmup?: { connections?: number; duration?: number };
      /** Milliseconds between samples, which is also how often the end of `duration` is noticed. */
      sampleInt?: number;
    }

    interface Histogram {
      average: number;
      p50: number;
      p99: number;
      max: number;
      total: number;
    }

    interface Result {
      requests: Histogram;
      latency: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      statusCodeStats: Record<string, { count: number }>;
      warmup?: Result;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
      on(event: 'start', listener: () => void): this;
      on(event: 'response', listener: (client: EventEmitter, statusCode: number, resBytes: number, responseTime: number) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export default autocannon;
}
