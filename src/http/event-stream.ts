import type { ServerResponse } from 'node:http';

/**
 * A Server-Sent Events response (the WHATWG HTML standard's `text/event-stream`):
 * events written as they come, comment lines as heartbeats so that proxies
 * keep an idle stream open, `retry:` telling the client how long to wait
 * before it reconnects. The response writer sends the head and makes the
 * stream (reply.ts, kind `event-stream`); the route that asked for it writes
 * the events and ends it.
 *
 * A client that does not read cannot make the process hold more than
 * `bufferLimit` bytes for it: what Node could not hand to the socket waits in
 * the response's buffer, and once that passes the limit the connection is
 * cut. A client that reads (even slowly) never comes near it: an event is a
 * few hundred bytes, and the kernel's socket buffers take the first hundreds
 * of kilobytes before anything waits in the process.
 */
export interface EventStreamOptions {
  /** A comment line after this long (ms), so that proxies keep the connection open. */
  readonly heartbeatMs: number;
  /** Bytes that may wait in the process for a client before it is cut. */
  readonly bufferLimit: number;
  /** The client's reconnection time (ms), sent first as `retry:`. */
  readonly retryMs: number;
}

/** How a stream ended: ended by the service, gone (the client closed it, or the service stopped), or cut because it stopped reading. */
export type StreamEnd = 'ended' | 'gone' | 'cut';

const HEARTBEAT = ': heartbeat\n\n';

/** One event: its id, its name, and its data, each line of which (none in JSON) gets a `data:` field. */
export function eventText(event: string, data: string, id?: number): string {
  const lines = data.includes('\n') ? data.replace(/\r\n|\r/g, '\n').split('\n').join('\ndata: ') : data;
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${lines}\n\n`;
}

/** The `retry:` field alone: the client's reconnection time from now on. */
export const retryText = (ms: number): string => `retry: ${Math.round(ms)}\n\n`;

export class EventStream {
  readonly #res: ServerResponse;
  readonly #bufferLimit: number;
  readonly #heartbeat: NodeJS.Timeout | undefined;
  #open = true;
  #corked = false;
  #end: StreamEnd = 'gone';
  /** The response's `close` came: the stream has ended and the listener was told (or will be, once it is given). */
  #closedFired = false;
  #onEnd: ((end: StreamEnd) => void) | undefined;

  /** `res` has its head written; a HEAD request's stream ends at once (it has no body). */
  constructor(res: ServerResponse, options: EventStreamOptions) {
    this.#res = res;
    this.#bufferLimit = options.bufferLimit;
    if (res.destroyed) {
      // The client went while the route was still finding where its stream starts: its `close` has come and gone.
      this.#open = false;
      this.#closedFired = true;
      return;
    }
    res.once('close', this.#closed);
    if (res.req.method === 'HEAD') {
      this.#open = false;
      this.#end = 'ended';
      res.end();
      return;
    }
    res.write(retryText(options.retryMs));
    this.#heartbeat = setInterval(() => this.write(HEARTBEAT), options.heartbeatMs);
    this.#heartbeat.unref();
  }

  /** Whether events can still be written. */
  get open(): boolean {
    return this.#open;
  }

  /** Called once, when the stream has ended for whatever reason (at once if it already has). */
  onEnd(listener: (end: StreamEnd) => void): void {
    if (this.#closedFired) queueMicrotask(() => listener(this.#end));
    else this.#onEnd = listener;
  }

  /**
   * Writes one or more events. Writes within one turn of the event loop leave
   * in one system call (corked until the next tick). False when the stream
   * is closed, or has just been cut: its client let too much wait.
   */
  write(text: string): boolean {
    if (!this.#open) return false;
    const res = this.#res;
    if (!this.#corked) {
      this.#corked = true;
      res.cork();
      process.nextTick(this.#uncork);
    }
    res.write(text);
    if (res.writableLength <= this.#bufferLimit) return true;
    this.#stop('cut');
    res.destroy();
    return false;
  }

  /** Writes `text` (the last events, a last `retry:`) and ends the response; its connection closes after it. */
  end(text = ''): void {
    if (!this.#open) return;
    this.#stop('ended');
    this.#res.end(text);
  }

  #stop(end: StreamEnd): void {
    this.#open = false;
    this.#end = end;
    clearInterval(this.#heartbeat);
  }

  readonly #uncork = (): void => {
    this.#corked = false;
    this.#res.uncork();
  };

  readonly #closed = (): void => {
    this.#closedFired = true;
    if (this.#open) this.#stop('gone');
    const listener = this.#onEnd;
    this.#onEnd = undefined;
    listener?.(this.#end);
  };
}
