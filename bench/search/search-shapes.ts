/**
 * The right answer to a marketplace search (CONTRACT.md section 7, "Product
 * search"), checked on the first response of every search kind: the products
 * the server must answer, worked out from what it was seeded with
 * (shop-contents.ts), in order and field by field, X-Total-Count, and for a
 * paged query the Link header's first, prev, next and last.
 */
import type { Outgoing, RequestKind } from '../harness/load-plan.js';
import { dataOf, isRecord } from '../harness/product-shapes.js';
import { parseShopQuery, type ShopContents, type ShopQuery } from './shop-contents.js';

type Check = RequestKind['check'];

const PRODUCT_KEYS = 'id,name,description,price,category,stock';

function itemProblem(index: number, item: unknown, expectedId: number, shop: ShopContents): string | undefined {
  if (!isRecord(item)) return `item ${index} is not an object`;
  const keys = Object.keys(item).join(',');
  if (keys !== PRODUCT_KEYS) return `item ${index} has keys ${keys}, not ${PRODUCT_KEYS}`;
  const id = item.id;
  if (id !== expectedId) return `item ${index} is id ${JSON.stringify(id)}, expected ${expectedId}`;
  const expected = JSON.stringify(shop.product(expectedId));
  const got = JSON.stringify(item);
  return got === expected ? undefined : `item ${index} is ${got}, expected ${expected}`;
}

/** `<url>; rel="x"` entries by relation. */
function parseLinks(header: string): Map<string, string> | string {
  const links = new Map<string, string>();
  const entry = /<([^>]*)>([^<]*)/g;
  for (let match = entry.exec(header); match !== null; match = entry.exec(header)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2] ?? '');
    const names = rel?.[1] ?? rel?.[2];
    if (names === undefined) return `Link entry <${match[1] ?? ''}> has no rel`;
    for (const name of names.trim().split(/\s+/)) links.set(name.toLowerCase(), match[1] ?? '');
  }
  return links;
}

/** The query's parameters as sorted `name=value` pairs, so two orders of one query compare equal. */
function sortedParams(params: URLSearchParams): string {
  return [...params].map(([name, value]) => `${name}=${value}`).sort().join('&');
}

function linkProblem(header: string | undefined, sent: Outgoing, query: ShopQuery, total: number): string | undefined {
  if (header === undefined) return 'a paged answer has no Link header';
  const links = parseLinks(header);
  if (typeof links === 'string') return links;
  const page = query.page ?? 1;
  const perPage = query.perPage ?? 1;
  const last = Math.max(1, Math.ceil(total / perPage));
  const expected = new Map<string, number>([['first', 1], ['last', last]]);
  if (page > 1) expected.set('prev', page - 1);
  if (page < last) expected.set('next', page + 1);
  for (const rel of ['first', 'prev', 'next', 'last']) {
    const target = links.get(rel);
    const wanted = expected.get(rel);
    if (wanted === undefined) {
      if (target !== undefined) return `Link has rel="${rel}" on page ${page} of ${last}`;
      continue;
    }
    if (target === undefined) return `Link has no rel="${rel}" (page ${page} of ${last}): ${header}`;
    const url = new URL(target, 'http://bench.invalid');
    if (!target.startsWith('/') || url.pathname !== '/products') return `Link rel="${rel}" is ${target}, not a path-absolute /products URL`;
    const params = new URLSearchParams(sent.path.slice(sent.path.indexOf('?') + 1));
    params.set('page', String(wanted));
    params.set('per_page', String(perPage));
    if (sortedParams(url.searchParams) !== sortedParams(params)) return `Link rel="${rel}" is ${target}, expected the query ${sortedParams(params)}`;
  }
  return undefined;
}

/** The products, total and links the server must answer to the search in the path. */
export function expectSearchAnswer(shop: ShopContents): Check {
  return (response, sent) => {
    const parsed = dataOf(response);
    if (typeof parsed === 'string') return parsed;
    if (!Array.isArray(parsed.data)) return '"data" is not an array';
    const own = parsed.data.findIndex((item) => isRecord(item) && typeof item.id === 'number' && item.id <= shop.own);
    if (own !== -1) return `item ${own} is one of the server's own ${shop.own} products: a measured query must match only seeded ones`;
    const query = parseShopQuery(sent.path);
    const expected = shop.search(query);
    const total = response.header('x-total-count');
    if (total !== String(expected.total)) return `X-Total-Count is ${JSON.stringify(total)}, expected ${expected.total}`;
    if (parsed.data.length !== expected.ids.length) return `the answer has ${parsed.data.length} products, expected ${expected.ids.length}`;
    for (let index = 0; index < expected.ids.length; index++) {
      const problem = itemProblem(index, parsed.data[index], expected.ids[index] as number, shop);
      if (problem !== undefined) return problem;
    }
    return query.page === undefined ? undefined : linkProblem(response.header('link'), sent, query, expected.total);
  };
}
