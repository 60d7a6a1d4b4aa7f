/**
 * What a test of a stop with a request in flight waits for, instead of a
 * pause: that the service has taken the request in (its `100 Continue`), and
 * that its stop has begun (a connection refused: it no longer listens).
 */
import net from 'node:net';
import { waitForAnswer } from '../wait-for.js';

/** The line a request head adds to be told when the service has read it. */
export const EXPECT_CONTINUE = 'Expect: 100-continue\r\n';

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

/**
 * Resolves once the service has answered `100 Continue` on `socket` to a
 * request sent with EXPECT_CONTINUE: it has read the head and handed the
 * request in, which now waits for the rest of its body. Until then a stop
 * could find the connection idle and close it.
 */
export function continued(socket: net.Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer | string): void => {
      seen += chunk.toString();
      if (!seen.includes(CONTINUE)) return;
      socket.off('data', onData).off('close', onClose);
      resolve();
    };
    const onClose = (): void => reject(new Error(`the connection closed before 100 Continue; it sent ${JSON.stringify(seen)}`));
    socket.on('data', onData).once('close', onClose);
  });
}

/** The response after the interim `100 Continue`. */
export function finalResponse(text: string): string {
  return text.startsWith(CONTINUE) ? text.slice(CONTINUE.length) : text;
}

function knock(port: number): Promise<'refused' | 'accepted'> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? 'refused' : 'accepted'));
  });
}

/** Resolves once a connection to `port` is refused: the service has closed its listener, so its stop has begun. */
export async function untilRefused(port: number): Promise<void> {
  await waitForAnswer(`port ${port} to refuse connections`, () => knock(port), (answer) => answer === 'refused');
}
