import { randomBytes } from 'node:crypto';

/**
 * The store's entity tags are version numbers (a write count), so a tag costs
 * no hashing of bodies. The data lives in memory and starts again from the
 * seed with every start, so the same count names other contents after a
 * restart: each tag carries this start's epoch, and a tag from before a
 * restart matches nothing (a 200, never a wrong 304).
 */
const EPOCH = randomBytes(6).toString('base64url');

/** `"<epoch><kind><version>"`: `kind` tells the resource's tags from its list's. */
export function entityTag(kind: 'p' | 'l', version: number): string {
  return `"${EPOCH}${kind}${version}"`;
}
