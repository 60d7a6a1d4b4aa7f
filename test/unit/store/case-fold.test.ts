/**
 * The text index's case folding against the expression that defines a match
 * (text-match.ts), over every code point: two code points fold alike exactly
 * when the expression matches one with the other. The index relies on it: a
 * fold finer than the expression would lose matches, a coarser one would
 * answer 1- to 3-character queries wrongly (they are not verified).
 */
import test from 'ava';
import { foldCodePoint } from '../../../workers/products/case-fold.js';
import { matchesText } from '../../../workers/products/text-match.js';

const LAST_CODE_POINT = 0x10ffff;

function everyCodePointBut(excluded: ReadonlySet<number>): string {
  const parts: string[] = [];
  let chunk: number[] = [];
  for (let codePoint = 0; codePoint <= LAST_CODE_POINT; codePoint++) {
    if ((codePoint >= 0xd800 && codePoint <= 0xdfff) || excluded.has(codePoint)) continue;
    chunk.push(codePoint);
    if (chunk.length === 4096) {
      parts.push(String.fromCodePoint(...chunk));
      chunk = [];
    }
  }
  parts.push(String.fromCodePoint(...chunk));
  return parts.join('');
}

/** The code points Unicode says change under case folding or mapping, found over all seventeen planes. */
const CASED: readonly number[] = (everyCodePointBut(new Set()).match(/[\p{Changes_When_Casefolded}\p{Changes_When_Casemapped}]/gu) ?? []).map(
  (character) => character.codePointAt(0) ?? 0,
);

test('no code point above plane 1 has case (the fold looks no further)', (t) => {
  t.true(CASED.length > 2500);
  t.deepEqual(
    CASED.filter((codePoint) => codePoint >= 0x20000),
    [],
  );
});

test('among the cased code points, the expression matches exactly those that fold alike', (t) => {
  const casedText = String.fromCodePoint(...CASED);
  const byFold = new Map<number, number[]>();
  for (const codePoint of CASED) {
    const fold = foldCodePoint(codePoint);
    byFold.set(fold, [...(byFold.get(fold) ?? []), codePoint]);
  }
  const wrong: string[] = [];
  for (const codePoint of CASED) {
    const escaped = String.fromCodePoint(codePoint).replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
    const matched = (casedText.match(new RegExp(escaped, 'giu')) ?? []).map((character) => character.codePointAt(0) ?? 0);
    const foldedAlike = byFold.get(foldCodePoint(codePoint)) ?? [];
    if (matched.join() !== foldedAlike.join()) wrong.push(`U+${codePoint.toString(16)}: matches ${matched.join()} but folds with ${foldedAlike.join()}`);
    if (!matched.includes(foldCodePoint(codePoint))) wrong.push(`U+${codePoint.toString(16)} folds to what it does not match`);
  }
  t.deepEqual(wrong, []);
});

test('no other code point matches a cased one, and each of them folds to itself', (t) => {
  const cased = new Set(CASED);
  t.false(CASED.some((codePoint) => '\\]-^['.includes(String.fromCodePoint(codePoint))), 'the class below needs no escapes');
  const anyCased = new RegExp(`[${String.fromCodePoint(...CASED)}]`, 'iu');
  const rest = everyCodePointBut(cased);
  t.false(anyCased.test(rest));
  let moved = 0;
  for (const character of rest) if (foldCodePoint(character.codePointAt(0) ?? 0) !== character.codePointAt(0)) moved++;
  t.is(moved, 0);
});

test('the classes a reader looks for', (t) => {
  const alike = (...characters: string[]): boolean => new Set(characters.map((character) => foldCodePoint(character.codePointAt(0) ?? 0))).size === 1;
  t.true(alike('σ', 'ς', 'Σ'));
  t.true(alike('k', 'K', '\u212A'), 'the Kelvin sign');
  t.true(alike('s', 'S', 'ſ'));
  t.true(alike('ß', 'ẞ'));
  t.false(alike('ß', 's'), 'no full folding: ß is not ss, nor s');
  t.false(alike('İ', 'i'));
  t.false(alike('ı', 'i'), 'dotless i matches only itself, though it upper-cases to I');
  t.false(alike('ı', 'I'));
  t.true(alike('\u0390', '\u1FD3'), 'joined by folding, not by lower or upper case');
  t.true(alike('\u0345', '\u03B9', '\u0399', '\u1FBE'));
  t.is(foldCodePoint(0x4b), 0x4b);
  t.is(foldCodePoint(0x6b), 0x4b, 'ASCII letters fold to capitals, the lowest of their classes');
  for (const [a, b] of [
    ['σ', 'ς'],
    ['\u212A', 'k'],
    ['ſ', 'S'],
    ['ẞ', 'ß'],
  ] as const) {
    t.true(matchesText(a, b));
  }
  t.false(matchesText('ı', 'i'));
});
