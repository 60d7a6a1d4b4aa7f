import type { IncomingMessage } from 'node:http';
import { Buffer, isUtf8 } from 'node:buffer';
import secureJson from 'secure-json-parse';

/**
 * Reading and parsing request bodies: the media type, the size limit, UTF-8
 * and JSON, in that order. The route runner turns each outcome into its
 * answer, so a route only ever sees a parsed value.
 */

export type BodyOutcome =
  | { readonly kind: 'parsed'; readonly value: unknown }
  | { readonly kind: 'unsupported-media-type' }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'unparsable'; readonly message: string }
  /** The client went away before the body ended: there is nobody to answer. */
  | { readonly kind: 'aborted' };

// A JSON media type, parameters (charset...) stripped: application/json or any
// structured-syntax suffix type such as application/merge-patch+json.
const JSON_SUFFIX_TYPE = /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.+-]+\+json$/;

/** No Content-Type at all is read as JSON, as the contract asks. */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined || header === 'application/json') return true;
  const semicolon = header.indexOf(';');
  const mediaType = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  return mediaType === 'application/json' || mediaType === '' || JSON_SUFFIX_TYPE.test(mediaType);
}

// `__proto__` keys and `constructor.prototype` chains are removed like any
// unknown key instead of failing the request: the contract accepts such a
// body when it is otherwise valid. JSON.parse alone would keep `__proto__` as
// an own key, a trap for any later merge of the value.
const PARSE_OPTIONS = { protoAction: 'remove', constructorAction: 'remove' } as const;

/** Turns a complete body into a value. An empty body counts as `{}`. */
export function parseJsonBytes(bytes: Buffer): BodyOutcome {
  if (bytes.length === 0) return { kind: 'parsed', value: {} };
  if (!isUtf8(bytes)) return { kind: 'unparsable', message: 'Request body is not valid UTF-8' };
  try {
    return { kind: 'parsed', value: secureJson.parse(bytes.toString('utf8'), undefined, PARSE_OPTIONS) as unknown };
  } catch (error) {
    return { kind: 'unparsable', message: error instanceof Error ? error.message : 'Request body is not valid JSON' };
  }
}

/** Buffers a body up to `limit` bytes; past it, stops keeping what arrives. */
function collectBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'aborted'> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.resolve('too-large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: Buffer | 'too-large' | 'aborted'): void => {
      req.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish('too-large');
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    const onClose = (): void => finish('aborted');
    req.on('data', onData).on('end', onEnd).on('close', onClose);
    // A client that resets mid-body makes the request emit 'error'; without a
    // listener that would be an uncaught exception. 'close' follows it.
    req.on('error', () => {});
  });
}

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<BodyOutcome> {
  if (!isJsonContentType(req.headers['content-type'])) return { kind: 'unsupported-media-type' };
  const body = await collectBody(req, limit);
  if (body === 'too-large') return { kind: 'too-large' };
  if (body === 'aborted') return { kind: 'aborted' };
  return parseJsonBytes(body);
}
