/**
 * Conditional requests (RFC 9110 section 13) as the store receives them: the
 * entity tags of If-None-Match and If-Match, already parsed by the front.
 * `*` stands for "any current representation". Tags are opaque strings,
 * quotes included, weak prefixes removed where weak comparison applies.
 */
export type EntityTags = '*' | readonly string[];

export interface Conditions {
  /** Reads: answer 304 when the current tag is one of these. */
  readonly ifNoneMatch?: EntityTags;
  /** Writes: refuse with 412 unless the current tag is one of these. */
  readonly ifMatch?: EntityTags;
}
