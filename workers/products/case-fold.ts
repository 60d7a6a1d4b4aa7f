import { textPattern } from './text-match.js';

/**
 * The search's case folding for the text index: every code point mapped to
 * one member of its class under the regular expression that defines a match
 * (text-match.ts: the `i` and `u` flags, Unicode simple case folding). Two
 * code points match each other exactly when they fold to the same number,
 * so a substring match is a plain substring of folded code points, and an
 * index built over folded text finds every product the expression would.
 *
 * The classes are read from the expression engine itself rather than from
 * toLowerCase and toUpperCase, which disagree with it: `ΐ` (U+0390) and
 * U+1FD3 match each other but neither lower- nor upper-casing joins them,
 * and `ı` upper-cases to `I` without matching `i`. A class is represented by
 * its lowest code point, so ASCII letters fold to capitals (`k`, `K` and the
 * Kelvin sign all fold to `K`).
 */

/** Above plane 1 no code point changes under case mapping or folding (test/unit/store/case-fold.test.ts checks it). */
const LAST_CASED_PLANE_END = 0x20000;

/** Code points whose class may hold others, in ascending order, as one string; read on the first non-ASCII fold. */
let casedCodePoints: { readonly set: ReadonlySet<number>; readonly text: string } | undefined;
/** Folds worked out so far, for members of `casedCodePoints` only: at most a few thousand entries. */
const folds = new Map<number, number>();

/** The lowest code point that the search's expression matches with `codePoint`, in either direction. */
export function foldCodePoint(codePoint: number): number {
  if (codePoint < 0x80) return codePoint >= 0x61 && codePoint <= 0x7a ? codePoint - 0x20 : codePoint;
  const cased = (casedCodePoints ??= findCasedCodePoints());
  if (!cased.set.has(codePoint)) return codePoint;
  return folds.get(codePoint) ?? foldClassOf(codePoint, cased.text);
}

/**
 * The code points that change when case-folded or case-mapped (Unicode's
 * CWCF and CWCM properties), about 3,000, found once in a few milliseconds.
 * Of two distinct code points that match, at least one folds to something
 * else (CWCF); what it folds to is its case partner (CWCM). So every member
 * of a class of two or more is among them, and anything else folds to
 * itself: test/unit/store/case-fold.test.ts checks both claims over every code point.
 */
function findCasedCodePoints(): { set: Set<number>; text: string } {
  const units = new Uint16Array(2 * LAST_CASED_PLANE_END);
  let length = 0;
  for (let codePoint = 0; codePoint < LAST_CASED_PLANE_END; codePoint++) {
    // Lone surrogates have no case; leaving them out keeps the text well formed.
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    if (codePoint < 0x10000) {
      units[length++] = codePoint;
    } else {
      units[length++] = 0xd800 + ((codePoint - 0x10000) >> 10);
      units[length++] = 0xdc00 + ((codePoint - 0x10000) & 0x3ff);
    }
  }
  const everyCodePoint = new TextDecoder('utf-16le').decode(units.subarray(0, length));
  const cased = everyCodePoint.match(/[\p{Changes_When_Casefolded}\p{Changes_When_Casemapped}]/gu) ?? [];
  return { set: new Set(cased.map((character) => character.codePointAt(0) ?? 0)), text: cased.join('') };
}

/** Finds the class of `codePoint` among the cased code points with the search's own expression, and remembers it for every member. */
function foldClassOf(codePoint: number, casedText: string): number {
  const members = casedText.match(new RegExp(textPattern(String.fromCodePoint(codePoint)).source, 'giu')) ?? [];
  let lowest = codePoint;
  for (const member of members) lowest = Math.min(lowest, member.codePointAt(0) ?? codePoint);
  for (const member of members) folds.set(member.codePointAt(0) ?? codePoint, lowest);
  folds.set(codePoint, lowest);
  return lowest;
}
