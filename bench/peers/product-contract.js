// What every benchmark peer shares: the contract's seed and rules, not how a
// framework is used. Written once so the peers differ only in their framework
// (or, for raw-node, in having none).

/** The ten seeded products; each peer mutates its own copy. */
export function seedProducts() {
  return SEED.map((product) => ({ ...product }));
}

const SEED = [
  { id: 1, name: 'Espresso Machine', description: 'Compact 15-bar pump espresso machine with steam wand', price: 189.99 },
  { id: 2, name: 'Burr Coffee Grinder', description: 'Conical burr grinder with 40 grind settings', price: 79.5 },
  { id: 3, name: 'Pour-Over Kettle', description: 'Gooseneck kettle, 1 litre, with built-in thermometer', price: 45 },
  { id: 4, name: 'French Press', description: 'Double-wall stainless steel press, 8 cups', price: 34.95 },
  { id: 5, name: 'Milk Frother', description: 'Handheld battery-powered frother with stand', price: 14.99 },
  { id: 6, name: 'Ceramic Mug Set', description: 'Four stoneware mugs, 350 ml each, dishwasher safe', price: 29 },
  { id: 7, name: 'Digital Scale', description: 'Coffee scale with timer, 0.1 g resolution up to 2 kg', price: 24.9 },
  { id: 8, name: 'Cold Brew Maker', description: 'Glass carafe with fine mesh filter, 1.5 litres', price: 27.49 },
  { id: 9, name: 'Travel Tumbler', description: 'Vacuum-insulated tumbler that keeps drinks hot for 6 hours', price: 22 },
  { id: 10, name: 'Descaling Kit', description: 'Citric acid descaler for espresso machines and kettles, 3 doses', price: 12.75 },
];

// `:id` is decimal digits only; anything else matches no product.
export function parseId(raw) {
  return /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
}

// Returns an error message, or undefined when the body is a valid product.
export function validate(body) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'name, description and price are required';
  const { name, description, price } = body;
  if (!name || !description || !price) return 'name, description and price are required';
  if (typeof name !== 'string') return 'name must be a string';
  if (typeof description !== 'string') return 'description must be a string';
  if (typeof price !== 'number' || !Number.isFinite(price)) return 'price must be a finite number';
  return undefined;
}
