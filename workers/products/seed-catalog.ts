import { SEED_PRODUCTS } from './seed-products.js';
import type { CatalogProductFields } from './catalog-protocol.js';

/**
 * The marketplace's ten products: the seed's, with real categories and stock
 * (ids 1 to 10 in this order). Section 7: "the seeded ten products have
 * categories and stock", so every one is tracked; untracked stock (null) is
 * for products an administrator creates.
 */
const CATEGORIES_AND_STOCK: readonly Pick<CatalogProductFields, 'category' | 'stock'>[] = [
  { category: 'espresso', stock: 12 },
  { category: 'grinders', stock: 25 },
  { category: 'kettles', stock: 40 },
  { category: 'brewers', stock: 30 },
  { category: 'accessories', stock: 60 },
  { category: 'drinkware', stock: 80 },
  { category: 'accessories', stock: 35 },
  { category: 'brewers', stock: 0 },
  { category: 'drinkware', stock: 50 },
  { category: 'maintenance', stock: 120 },
];

export const SEED_CATALOG: readonly CatalogProductFields[] = SEED_PRODUCTS.map(({ name, description, price }, index) => {
  const { category, stock } = CATEGORIES_AND_STOCK[index] ?? { category: null, stock: null };
  return { name, description, price, category, stock };
});
