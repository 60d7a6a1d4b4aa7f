/**
 * Strings compared by Unicode code point, the contract's order for names.
 *
 * JavaScript's `<` compares UTF-16 code units, which puts a character above
 * U+FFFF (stored as a surrogate pair, D800-DFFF) before one in E000-FFFF.
 * Only the first code unit that differs decides, so the comparison walks to
 * it and then reads the code point that unit belongs to; a lone surrogate
 * counts as its own code point, as `for...of` and `codePointAt` see it.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const shorter = Math.min(a.length, b.length);
  let i = 0;
  while (i < shorter && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === shorter) return a.length - b.length;
  const unitA = a.charCodeAt(i);
  const unitB = b.charCodeAt(i);
  // Both below the surrogates: code unit order is code point order (the common case).
  if (unitA < 0xd800 && unitB < 0xd800) return unitA - unitB;
  if (i > 0 && isHighSurrogate(a.charCodeAt(i - 1))) {
    // The shared unit before may open a pair in one string and stand alone in the other.
    const lowA = isLowSurrogate(unitA);
    const lowB = isLowSurrogate(unitB);
    if (lowA && lowB) return unitA - unitB;
    // A pair (at least U+10000) beats the lone high surrogate the other string has there.
    if (lowA) return 1;
    if (lowB) return -1;
  }
  return codePointAt(a, i) - codePointAt(b, i);
}

function codePointAt(text: string, index: number): number {
  // The index is inside the string here, so codePointAt never answers undefined.
  return text.codePointAt(index) ?? 0;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
