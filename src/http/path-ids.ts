/**
 * An `:id` path parameter: decimal digits only (`007` is 7). Anything else
 * (`abc`, `1.5`, `-1`, a number too large to be exact) matches nothing, which
 * the route answers with its not-found error.
 */
export function parseId(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^[0-9]+$/.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}
