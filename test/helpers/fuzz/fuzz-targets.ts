/** The fuzzer's request targets: the routes, ids of every odd shape, queries and paths that name nothing. */
import type { Random } from '../seeded-random.js';
import type { RouteName, Routing } from './fuzz-case.js';

const ID_ROUTES = new Set<RouteName>(['/products/:id', '/produkte/:id']);

function idToken(random: Random): string {
  return random.weighted<() => string>([
    [40, () => String(random.int(1, 14))],
    [3, () => '007'],
    [3, () => '0'],
    [3, () => '-1'],
    [3, () => '1.5'],
    [3, () => 'abc'],
    [2, () => '1abc'],
    [2, () => '%00'],
    [2, () => '%2e%2e'],
    [2, () => '1%2F2'],
    [3, () => random.pick(['%C3%A9', '%E2%82%AC', '%F0%9F%98%80', 'caf%C3%A9'])],
    [2, () => '9007199254740993'],
    // Long digit strings: a small id behind leading zeros, or a number no product can have.
    [6, () => `${'0'.repeat(random.int(49, 299))}${String(random.int(1, 9))}`],
    [5, () => Array.from({ length: random.int(50, 300) }, () => String(random.int(0, 9))).join('')],
  ])();
}

const QUERIES = ['?x=1', '?page=2&sort=price_asc', '?%ZZ', '?__proto__[polluted]=1', '?id=1', '?', `?q=${'a'.repeat(600)}`, '?next=/products/3'];

/** A target and what it names. */
export function target(random: Random): { target: string; routing: Routing } {
  const odd = random.chance(0.08);
  if (odd) {
    return random.pick<{ target: string; routing: Routing }>([
      { target: '/products/1/extra', routing: { kind: 'none' } },
      { target: '/PRODUCTS', routing: { kind: 'none' } },
      { target: '/productsx', routing: { kind: 'none' } },
      { target: '/produkt/1', routing: { kind: 'none' } },
      { target: '/', routing: { kind: 'none' } },
      { target: '/nope', routing: { kind: 'none' } },
      { target: '/health/deep', routing: { kind: 'none' } },
      { target: '/api/products', routing: { kind: 'none' } },
      { target: '/login/x', routing: { kind: 'none' } },
      { target: '/me/1', routing: { kind: 'none' } },
      { target: '//products', routing: { kind: 'unspecified' } },
      { target: '/products//1', routing: { kind: 'unspecified' } },
      { target: '/products/1//', routing: { kind: 'unspecified' } },
      { target: '/products//', routing: { kind: 'unspecified' } },
      { target: '/products/%ZZ', routing: { kind: 'unspecified' } },
      { target: '/%70roducts/1', routing: { kind: 'unspecified' } },
    ]);
  }
  const route = random.weighted<RouteName>([
    [18, '/products'],
    [36, '/products/:id'],
    [8, '/produkte'],
    [14, '/produkte/:id'],
    [9, '/login'],
    [5, '/me'],
    [4, '/health'],
  ]);
  const id = ID_ROUTES.has(route) ? idToken(random) : undefined;
  let path = id === undefined ? route : route.replace(':id', id);
  if (random.chance(0.12)) path += '/';
  if (random.chance(0.15)) path += random.pick(QUERIES);
  return { target: path, routing: id === undefined ? { kind: 'route', route } : { kind: 'route', route, id } };
}
