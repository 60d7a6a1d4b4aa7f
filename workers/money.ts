/**
 * Money is exact: prices are numbers with at most two decimals (checked by the
 * front), held here as integer cents, summed and multiplied as integers, and
 * shown as numbers again only at the end. `19.99 × 3` is 5997 cents, shown as
 * 59.97, never 59.970000000000006.
 */

/** A price as integer cents; the price has at most two decimals. */
export function toCents(price: number): number {
  return Math.round(price * 100);
}

/**
 * Integer cents as the number JSON shows. Division by 100 gives the double
 * nearest to the two-decimal value, and JavaScript prints the shortest text
 * that reads back as that double: at most two decimals.
 */
export function fromCents(cents: number): number {
  return cents / 100;
}
