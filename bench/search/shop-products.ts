/**
 * The products the marketplace scenarios seed (CONTRACT.md section 7): item
 * k's fields are a pure function of k, so the harness can say what any
 * seeded product holds without keeping a million of them, and every server
 * is sent the same items. The description ends with the item number, so a
 * product read back from a server says which item it is.
 */

/** Scenario h's categories: `cat-01`..`cat-20`, about 5% of the items each. */
export const CATEGORIES: readonly string[] = Array.from({ length: 20 }, (_, index) => `cat-${String(index + 1).padStart(2, '0')}`);

/**
 * In about 1% of names and in nothing else the benchmark sends (scenario j's
 * `q`). No other word here contains it, in any case, and the service's and
 * the peer's ten own products (coffee gear) do not either.
 */
export const RARE_WORD = 'Zephyr';
const RARE_PER_MILLE = 10;

/**
 * In the descriptions of about a hundred items, all among the first 10,000,
 * and in nothing else (scenario jr's `q`): its answer is the same at every
 * size from 10,000 products on, so that what a text search costs can be
 * compared across sizes apart from what its answer costs. No other word
 * here contains it, and neither server's own ten products do.
 */
export const FIXED_WORD = 'Aurora';
const FIXED_ITEMS_BELOW = 10_000;
const FIXED_PER_MILLE = 10;

const ADJECTIVES = ['Compact', 'Classic', 'Deluxe', 'Rustic', 'Modern', 'Sturdy', 'Slim', 'Large', 'Small', 'Quiet', 'Bright', 'Folding'];
const MATERIALS = ['Steel', 'Oak', 'Glass', 'Copper', 'Ceramic', 'Bamboo', 'Linen', 'Walnut', 'Marble', 'Cotton'];
const NOUNS = ['Kettle', 'Grinder', 'Mug', 'Tray', 'Scale', 'Press', 'Jar', 'Lamp', 'Shelf', 'Bowl', 'Stool', 'Clock'];

/**
 * Prices as shops write them: 1 to 500 in whole units, ending in .00, .49,
 * .95 or .99. Two thousand prices among tens of thousands of products in a
 * category make many ties, whose order (collection order) a sort must keep.
 */
const UNITS = 500;
const ENDINGS = [0, 49, 95, 99];

export interface ShopProductFields {
  readonly name: string;
  readonly description: string;
  readonly price: number;
  readonly category: string;
  readonly stock: number | null;
}

/** murmur3's finaliser over (item, salt): an independent, even spread per field. */
function mix(item: number, salt: number): number {
  let h = (Math.imul(item, 0x9e3779b1) + Math.imul(salt, 0x632be5ab)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const pick = (words: readonly string[], item: number, salt: number): string => words[mix(item, salt) % words.length] as string;

/** The category of item k alone: the harness's search answers read it for every item, so it builds nothing. */
export function categoryOf(item: number): string {
  return CATEGORIES[mix(item, 1) % CATEGORIES.length] as string;
}

/** Item k's price in cents. */
export function priceCentsOf(item: number): number {
  return 100 * (1 + (mix(item, 2) % UNITS)) + (ENDINGS[mix(item, 10) % ENDINGS.length] as number);
}

/** Stock: untracked (null) for 10% of items, sold out for 5%, else 1 to 500. */
function stockOf(item: number): number | null {
  const roll = mix(item, 3) % 100;
  if (roll < 10) return null;
  if (roll < 15) return 0;
  return 1 + (mix(item, 4) % 500);
}

export function nameOf(item: number): string {
  const middle = mix(item, 5) % 1000 < RARE_PER_MILLE ? RARE_WORD : pick(MATERIALS, item, 7);
  return `${pick(ADJECTIVES, item, 6)} ${middle} ${pick(NOUNS, item, 8)}`;
}

export function descriptionOf(item: number): string {
  const edition = item < FIXED_ITEMS_BELOW && mix(item, 11) % 1000 < FIXED_PER_MILLE ? ` (${FIXED_WORD} edition)` : '';
  return `A ${pick(ADJECTIVES, item, 9).toLowerCase()} ${pick(NOUNS, item, 8).toLowerCase()}${edition} for every day, bench item ${item}`;
}

/** How many of items 0 to `items` - 1 have RARE_WORD in their name: scenario j's answer at that size. */
export function itemsWithRareWord(items: number): number {
  let count = 0;
  for (let item = 0; item < items; item++) if (nameOf(item).includes(RARE_WORD)) count++;
  return count;
}

export function shopProduct(item: number): ShopProductFields {
  // Division of whole cents by 100 gives the double nearest the two-decimal
  // value, which JSON writes back as exactly that value.
  return { name: nameOf(item), description: descriptionOf(item), price: priceCentsOf(item) / 100, category: categoryOf(item), stock: stockOf(item) };
}

/** The POST /products body of item k. */
export function shopProductBody(item: number): string {
  return JSON.stringify(shopProduct(item));
}

const ITEM_IN_DESCRIPTION = /bench item (\d+)$/;

/** The item a product's description names, or undefined when it names none. */
export function itemOfDescription(description: string): number | undefined {
  const match = ITEM_IN_DESCRIPTION.exec(description);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
