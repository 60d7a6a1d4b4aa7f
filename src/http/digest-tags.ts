import { createHash } from 'node:crypto';
import type { RequestConditions } from './conditions.js';
import { emptyReply, jsonReply, type Reply } from './reply.js';

/**
 * Entity tags for the reads the store keeps no version of: a customer's
 * profile, addresses, wish list, cart and orders, reviews, the
 * administrators' order list. A cart's answer changes with the live prices
 * of its products and a wish list's with their fields, so no one counter
 * stands for them; a digest of the answer's bytes does, whatever changed it,
 * and costs the front (not the one store worker) a hash of a small body.
 * The store's own tags (products, /produkte) are version numbers and pass
 * through untouched.
 */
function hasEtag(headers: readonly string[] | undefined): boolean {
  if (headers === undefined) return false;
  for (let index = 0; index < headers.length; index += 2) if (headers[index] === 'etag') return true;
  return false;
}

function digestTag(body: string | readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  if (typeof body === 'string') hash.update(body);
  else for (const part of body) hash.update(part);
  // 144 bits, base64url: short, and quotable as an entity tag as it is.
  return `"d${hash.digest('base64url').slice(0, 24)}"`;
}

function matches(tags: RequestConditions['ifNoneMatch'], etag: string): boolean {
  return tags !== undefined && (tags === '*' || tags.includes(etag));
}

/** A GET's 200 JSON answer with an ETag, or 304 when If-None-Match names it. */
export function tagByDigest(reply: Reply, conditions: RequestConditions): Reply {
  if (reply.kind !== 'json' || reply.status !== 200 || hasEtag(reply.headers)) return reply;
  const etag = digestTag(reply.body);
  if (matches(conditions.ifNoneMatch, etag)) return emptyReply(304, ['etag', etag]);
  return jsonReply(reply.status, reply.body, [...(reply.headers ?? []), 'etag', etag]);
}
