import { Buffer } from 'node:buffer';
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { errorReply } from './reply.js';
import type { TransportErrorCode } from './http-errors.js';
import type { IdempotencyClaim, IdempotencyMode, Validated } from './route.js';

/**
 * The Idempotency-Key header (contract section 7): its form, and the claim a
 * request with one makes: which key, in which scope, with which body. What
 * the claim is answered is the store's (it remembers answers); this file
 * knows no domain.
 */

/** A key is 1 to 255 characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const MISSING = errorReply('IDEMPOTENCY_KEY_MISSING' satisfies TransportErrorCode);
const INVALID = errorReply('IDEMPOTENCY_KEY_INVALID' satisfies TransportErrorCode);

/** The header's value (undefined: absent and optional), or the 400 that refuses it. */
export function readIdempotencyKey(headers: IncomingHttpHeaders, mode: IdempotencyMode): Validated<string | undefined> {
  const sent = headers['idempotency-key'];
  // Node joins repeated headers of this kind with ", ": two keys are one longer key, judged like any other.
  const key = Array.isArray(sent) ? sent.join(', ') : sent;
  if (key === undefined) return mode === 'required' ? { ok: false, error: MISSING } : { ok: true, value: undefined };
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) return { ok: false, error: INVALID };
  return { ok: true, value: key };
}

/**
 * The method and the route's path with each parameter as the request
 * resolved it (`me` as the caller's id, `007` as 7), else as sent: two
 * requests are in one scope when they name the same resource the same way.
 */
export function scopeOf(method: string, path: string, ids: Readonly<Record<string, number>>, params: Readonly<Record<string, string | undefined>>): string {
  return `${method} ${path.replace(/:(\w+)/g, (_, name: string) => String(ids[name] ?? params[name] ?? ''))}`;
}

type Step = { readonly text: string } | { readonly value: unknown };

/**
 * Feeds `value`'s canonical JSON to `update` in chunks: object keys sorted, no
 * spaces, so bodies equal as parsed JSON give equal text whatever their key
 * order. A stack instead of recursion: a body may nest as deep as BODY_LIMIT allows.
 */
function feedCanonicalJson(value: unknown, update: (text: string) => void): void {
  const steps: Step[] = [{ value }];
  let pending = '';
  const emit = (text: string): void => {
    pending += text;
    if (pending.length >= 65_536) {
      update(pending);
      pending = '';
    }
  };
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if ('text' in step) {
      emit(step.text);
      continue;
    }
    const current = step.value;
    if (Array.isArray(current)) {
      emit('[');
      steps.push({ text: ']' });
      for (let index = current.length - 1; index >= 0; index--) {
        steps.push({ value: current[index] as unknown });
        if (index > 0) steps.push({ text: ',' });
      }
    } else if (typeof current === 'object' && current !== null) {
      const record = current as Readonly<Record<string, unknown>>;
      const keys = Object.keys(record).sort();
      emit('{');
      steps.push({ text: '}' });
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        steps.push({ value: record[key] });
        steps.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` });
      }
    } else {
      // Parsed JSON holds only strings, numbers, booleans and null here; a route without a body has undefined.
      emit(current === undefined ? 'null' : JSON.stringify(current));
    }
  }
  update(pending);
}

/**
 * Makes the claims of one process. The fingerprint is an HMAC under a key
 * made at start and never sent to the store: a plain hash of a card number
 * with its few unknown digits could be reversed by trying them all.
 */
export function createClaimMaker(secret: Buffer = randomBytes(32)) {
  return (key: string, scope: string, body: unknown): IdempotencyClaim => {
    const hmac = createHmac('sha256', secret);
    feedCanonicalJson(body, (text) => hmac.update(text, 'utf8'));
    return { key, scope, fingerprint: hmac.digest('base64url') };
  };
}

export type ClaimMaker = ReturnType<typeof createClaimMaker>;
