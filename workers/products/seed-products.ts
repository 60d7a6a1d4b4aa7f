import type { ProductFields } from './product-protocol.js';

/** The ten products every start begins with, ids 1 to 10 in this order. */
export const SEED_PRODUCTS: readonly ProductFields[] = [
  { name: 'Espresso Machine', description: 'Compact 15-bar pump espresso machine with steam wand', price: 189.99 },
  { name: 'Burr Coffee Grinder', description: 'Conical burr grinder with 40 grind settings', price: 79.5 },
  { name: 'Pour-Over Kettle', description: 'Gooseneck kettle, 1 litre, with built-in thermometer', price: 45 },
  { name: 'French Press', description: 'Double-wall stainless steel press, 8 cups', price: 34.95 },
  { name: 'Milk Frother', description: 'Handheld battery-powered frother with stand', price: 14.99 },
  { name: 'Ceramic Mug Set', description: 'Four stoneware mugs, 350 ml each, dishwasher safe', price: 29 },
  { name: 'Digital Scale', description: 'Coffee scale with timer, 0.1 g resolution up to 2 kg', price: 24.9 },
  { name: 'Cold Brew Maker', description: 'Glass carafe with fine mesh filter, 1.5 litres', price: 27.49 },
  { name: 'Travel Tumbler', description: 'Vacuum-insulated tumbler that keeps drinks hot for 6 hours', price: 22 },
  { name: 'Descaling Kit', description: 'Citric acid descaler for espresso machines and kettles, 3 doses', price: 12.75 },
];
