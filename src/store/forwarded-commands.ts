/**
 * The writer's internal endpoint (DATABASE_URL): POST BASE_PATH/_cluster/commands
 * takes the store commands a follower was given, runs them as one batch
 * through this instance's store, and answers their results once they are on
 * disk, with the journal sequence after them (workers/cluster-protocol.ts).
 * The follower authenticated, parsed and validated the client's request;
 * what comes here is its command, and the secret the instances share.
 *
 * It is not a route: no client calls it, it is in no API description, and
 * PROTECT cannot open it. The secret is compared in constant time (of
 * SHA-256 digests, so lengths differ without telling), and never logged.
 * On an instance that follows, it answers 421 and runs nothing: the
 * follower asks the lease who writes now.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { FORWARD_PATH, SECRET_HEADER, type ForwardedAnswer } from '../../workers/cluster-protocol.js';
import { STORE_PROTOCOL_VERSION, type StoreCommand, type StoreResult } from '../../workers/store-protocol.js';
import type { Logger } from '../log/logger.js';
import { FORWARD_ENDPOINT_ERRORS } from './cluster-errors.js';
import type { ForwardedReply } from './store-client.js';

/** A batch is many commands, each within BODY_LIMIT; this only stops a body without end. */
const MAX_FORWARD_BYTES = 256 * 1024 * 1024;

type EndpointError = keyof typeof FORWARD_ENDPOINT_ERRORS;

export interface ForwardedCommandsParts {
  readonly store: { runForwarded(commands: readonly StoreCommand[]): Promise<ForwardedReply> };
  readonly secret: string;
  readonly basePath: string;
  readonly log: Logger;
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function refuse(res: ServerResponse, code: EndpointError): void {
  const { status, message } = FORWARD_ENDPOINT_ERRORS[code];
  send(res, status, JSON.stringify({ error: message, code }));
}

/** Long lists travel between threads as byte parts; over HTTP, every body is one string. */
function asText(result: StoreResult): StoreResult {
  if (result.kind !== 'ok' || typeof result.body === 'string') return result;
  const { body: parts, ...rest } = result;
  return { body: Buffer.concat(parts.map((part) => Buffer.from(part.buffer, part.byteOffset, part.byteLength))).toString('utf8'), ...rest };
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_FORWARD_BYTES) {
        resolve('too-large');
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve('aborted'));
    req.on('close', () => resolve('aborted'));
  });
}

/** The commands of a forwarded body, or why not. */
function commandsOf(bytes: Buffer): readonly StoreCommand[] | 'FORWARD_PROTOCOL' | 'FORWARD_UNREADABLE' {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return 'FORWARD_UNREADABLE';
  }
  const { protocol, commands } = (typeof value === 'object' && value !== null ? value : {}) as { protocol?: unknown; commands?: unknown };
  if (typeof protocol === 'number' && protocol !== STORE_PROTOCOL_VERSION) return 'FORWARD_PROTOCOL';
  if (protocol !== STORE_PROTOCOL_VERSION || !Array.isArray(commands) || commands.length === 0) return 'FORWARD_UNREADABLE';
  // Each command's own shape is the store's to check, as for the front's.
  if (!commands.every((command: unknown) => typeof command === 'object' && command !== null && typeof (command as { kind?: unknown }).kind === 'string')) return 'FORWARD_UNREADABLE';
  return commands as StoreCommand[];
}

/** The app's listener with the endpoint in front of it; every other request goes to the app as before. */
export function withForwardedCommands<Listener extends RequestListener>(app: Listener, { store, secret, basePath, log }: ForwardedCommandsParts): Listener {
  const path = basePath + FORWARD_PATH;
  const expected = createHash('sha256').update(secret).digest();
  const secretOf = (req: IncomingMessage): 'missing' | 'wrong' | 'right' => {
    const header = req.headers[SECRET_HEADER];
    if (header === undefined || !header.startsWith('Bearer ')) return 'missing';
    return timingSafeEqual(createHash('sha256').update(header.slice('Bearer '.length)).digest(), expected) ? 'right' : 'wrong';
  };

  const forwarded = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const judged = secretOf(req);
    // Refused before the body is read: without the secret nobody makes this instance buffer anything.
    if (judged !== 'right') {
      log.warn('cluster endpoint: a request without the right secret was refused', { refused: judged === 'missing' ? 'no secret' : 'a wrong secret' });
      refuse(res, judged === 'missing' ? 'CLUSTER_SECRET_MISSING' : 'CLUSTER_SECRET_WRONG');
      return;
    }
    if (req.method !== 'POST') {
      refuse(res, 'METHOD_NOT_ALLOWED');
      return;
    }
    const body = await readBody(req);
    if (body === 'aborted') return;
    if (body === 'too-large') {
      refuse(res, 'FORWARD_TOO_LARGE');
      return;
    }
    const commands = commandsOf(body);
    if (typeof commands === 'string') {
      refuse(res, commands);
      return;
    }
    const reply = await store.runForwarded(commands);
    if (reply.kind === 'not-writer') refuse(res, 'NOT_THE_WRITER');
    else if (reply.kind === 'failed') {
      log.error('cluster endpoint: the store could not run a forwarded batch', { reason: reply.reason });
      refuse(res, 'FORWARD_FAILED');
    } else send(res, 200, JSON.stringify({ seq: reply.seq, results: reply.results.map(asText) } satisfies ForwardedAnswer));
  };

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.url !== path) {
      app(req, res);
      return;
    }
    forwarded(req, res).catch((error: unknown) => {
      log.error('cluster endpoint failed', { error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) refuse(res, 'FORWARD_FAILED');
    });
  };
  return Object.assign<typeof listener, Listener>(listener, app);
}
