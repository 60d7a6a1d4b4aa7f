// What a marketplace peer shares (CONTRACT.md section 7): its ten seeded
// products, the product body's rules, the search parameters' rules and the
// administrators' API keys, so a peer differs from another only in its
// framework and in how it answers.

/** The ten seeded products, with categories and stock; each peer mutates its own copy. */
export function seedShopProducts() {
  return SEED.map((product) => ({ ...product }));
}

// None of them matches a measured query: no `cat-NN` category, and the
// benchmark's rare word is in none of the names or descriptions.
const SEED = [
  { id: 1, name: 'Espresso Machine', description: 'Compact 15-bar pump espresso machine with steam wand', price: 189.99, category: 'espresso', stock: 12 },
  { id: 2, name: 'Burr Coffee Grinder', description: 'Conical burr grinder with 40 grind settings', price: 79.5, category: 'grinders', stock: 30 },
  { id: 3, name: 'Pour-Over Kettle', description: 'Gooseneck kettle, 1 litre, with built-in thermometer', price: 45, category: 'kettles', stock: 0 },
  { id: 4, name: 'French Press', description: 'Double-wall stainless steel press, 8 cups', price: 34.95, category: 'brewers', stock: 25 },
  { id: 5, name: 'Milk Frother', description: 'Handheld battery-powered frother with stand', price: 14.99, category: 'accessories', stock: 80 },
  { id: 6, name: 'Ceramic Mug Set', description: 'Four stoneware mugs, 350 ml each, dishwasher safe', price: 29, category: 'mugs', stock: 40 },
  { id: 7, name: 'Digital Scale', description: 'Coffee scale with timer, 0.1 g resolution up to 2 kg', price: 24.9, category: 'accessories', stock: 15 },
  { id: 8, name: 'Cold Brew Maker', description: 'Glass carafe with fine mesh filter, 1.5 litres', price: 27.49, category: 'brewers', stock: 7 },
  { id: 9, name: 'Travel Tumbler', description: 'Vacuum-insulated tumbler that keeps drinks hot for 6 hours', price: 22, category: 'mugs', stock: null },
  { id: 10, name: 'Descaling Kit', description: 'Citric acid descaler for espresso machines and kettles, 3 doses', price: 12.75, category: 'care', stock: 60 },
];

/** The keys of API_KEYS (`key1,key2` or `label=key,...`), the administrators' x-api-key values. */
export function apiKeys(setting) {
  return new Set(
    (setting ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map((entry) => (entry.includes('=') ? entry.slice(entry.indexOf('=') + 1) : entry)),
  );
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const isSlug = (value) => typeof value === 'string' && value.length <= 50 && SLUG.test(value);
const TWO_DECIMALS = /^\d+(\.\d{1,2})?$/;

// Returns an error message, or undefined when the body is a valid marketplace product.
export function validateShopProduct(body) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'name, description and price are required';
  const { name, description, price, category, stock } = body;
  if (typeof name !== 'string' || name === '') return 'name must be a non-empty string';
  if (typeof description !== 'string' || description === '') return 'description must be a non-empty string';
  if (typeof price !== 'number' || !(price > 0) || price > 1_000_000 || !TWO_DECIMALS.test(String(price))) return 'price must be a number above 0, at most 1000000, with at most two decimals';
  if (category !== undefined && category !== null && !isSlug(category)) return 'category must be a slug of at most 50 characters, or null';
  if (stock !== undefined && stock !== null && !(Number.isInteger(stock) && stock >= 0 && stock <= 1_000_000)) return 'stock must be an integer from 0 to 1000000, or null';
  return undefined;
}

export const SORTS = ['price_asc', 'price_desc', 'name_asc', 'name_desc', 'newest', 'rating_desc'];
const SEARCH_PARAMETERS = ['category', 'q', 'min_price', 'max_price', 'in_stock', 'sort', 'page', 'per_page'];
const DECIMAL = /^\d+(\.\d+)?$/;
const WHOLE = /^[1-9]\d*$/;

/**
 * The search parameters of a parsed query string: `{ error }` for a bad
 * value, else `{ search }` where search is undefined when none was given (the
 * plain list) and page/perPage are undefined when the answer is not paged.
 */
export function parseSearch(query) {
  if (!SEARCH_PARAMETERS.some((name) => query[name] !== undefined)) return { search: undefined };
  for (const name of SEARCH_PARAMETERS) if (query[name] !== undefined && typeof query[name] !== 'string') return { error: `${name} must be given once` };
  const { category, q, min_price, max_price, in_stock, sort, page, per_page } = query;
  const categories = category === undefined ? undefined : category.split(',');
  if (categories !== undefined && !categories.every(isSlug)) return { error: 'category must be slugs separated by commas' };
  if (q !== undefined && (q.length < 1 || q.length > 100)) return { error: 'q must be 1 to 100 characters' };
  if (min_price !== undefined && !DECIMAL.test(min_price)) return { error: 'min_price must be a number from 0' };
  if (max_price !== undefined && !DECIMAL.test(max_price)) return { error: 'max_price must be a number from 0' };
  if (in_stock !== undefined && in_stock !== 'true' && in_stock !== 'false') return { error: 'in_stock must be true or false' };
  if (sort !== undefined && !SORTS.includes(sort)) return { error: `sort must be one of ${SORTS.join(', ')}` };
  if (page !== undefined && !WHOLE.test(page)) return { error: 'page must be an integer from 1' };
  if (per_page !== undefined && !(WHOLE.test(per_page) && Number(per_page) <= 100)) return { error: 'per_page must be an integer from 1 to 100' };
  const paged = page !== undefined || per_page !== undefined;
  return {
    search: {
      categories,
      text: q?.toLowerCase(),
      minPrice: min_price === undefined ? undefined : Number(min_price),
      maxPrice: max_price === undefined ? undefined : Number(max_price),
      inStock: in_stock === undefined ? undefined : in_stock === 'true',
      sort,
      page: paged ? Number(page ?? 1) : undefined,
      perPage: paged ? Number(per_page ?? 20) : undefined,
    },
  };
}
