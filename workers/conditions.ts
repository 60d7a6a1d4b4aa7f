import type { Conditions, EntityTags } from './conditions-protocol.js';

function matches(tags: EntityTags, etag: string): boolean {
  return tags === '*' || tags.includes(etag);
}

/** A read whose client already holds the current representation: 304 without building a body. */
export function isNotModified(conditions: Conditions | undefined, etag: string): boolean {
  return conditions?.ifNoneMatch !== undefined && matches(conditions.ifNoneMatch, etag);
}

/** A write whose client saw another version of the resource than the current one: 412, nothing changed. */
export function failsPrecondition(conditions: Conditions | undefined, etag: string): boolean {
  return conditions?.ifMatch !== undefined && !matches(conditions.ifMatch, etag);
}
