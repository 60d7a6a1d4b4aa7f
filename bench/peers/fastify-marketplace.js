// The marketplace's product search (CONTRACT.md section 7, "Product search,
// details and categories") written the way a Fastify 5 user would: an array
// of products, and per search request filter it, stable-sort the filtered
// copy, slice the page. Product writes need an administrator's x-api-key
// (API_KEYS), as on the service. A benchmark peer only: PORT from the
// environment (0 picks a free one).
import Fastify from 'fastify';
import { apiKeys, parseSearch, seedShopProducts, validateShopProduct } from './marketplace-contract.js';

const products = seedShopProducts();
// Ids are never reused in the marketplace: one past the highest handed out.
let lastId = products.length;
const keys = apiKeys(process.env.API_KEYS);

const app = Fastify({ logger: false });

// Before the body is read, as on the service: authentication is judged first.
async function requireAdmin(request, reply) {
  const key = request.headers['x-api-key'];
  if (key === undefined) return reply.code(401).header('www-authenticate', 'Bearer').type('text/plain; charset=utf-8').send('Unauthorized');
  if (!keys.has(key)) return reply.code(403).type('text/plain; charset=utf-8').send('Forbidden');
}

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const COMPARE = {
  price_asc: (a, b) => a.price - b.price,
  price_desc: (a, b) => b.price - a.price,
  name_asc: byName,
  name_desc: (a, b) => byName(b, a),
  newest: (a, b) => b.id - a.id,
  // No reviews here: every product is unrated, so collection order.
  rating_desc: () => 0,
};

function matches(product, search) {
  if (search.categories && !search.categories.includes(product.category)) return false;
  if (search.text && !product.name.toLowerCase().includes(search.text) && !product.description.toLowerCase().includes(search.text)) return false;
  if (search.minPrice !== undefined && product.price < search.minPrice) return false;
  if (search.maxPrice !== undefined && product.price > search.maxPrice) return false;
  if (search.inStock === true && product.stock === 0) return false;
  if (search.inStock === false && product.stock !== 0) return false;
  return true;
}

// RFC 8288: first, prev, next and last, each with the request's query and an explicit page and per_page.
function pageLinks(url, page, perPage, last) {
  const [path, query = ''] = url.split('?');
  const link = (target, rel) => {
    const params = new URLSearchParams(query);
    params.set('page', String(target));
    params.set('per_page', String(perPage));
    return `<${path}?${params}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(page - 1, 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  return links.join(', ');
}

app.get('/products', async (request, reply) => {
  const { error, search } = parseSearch(request.query);
  if (error) return reply.code(400).send({ error });
  if (!search) return reply.send({ data: products });
  // filter() makes the copy that sort() then reorders; Array.prototype.sort is stable.
  const found = products.filter((product) => matches(product, search));
  if (search.sort) found.sort(COMPARE[search.sort]);
  reply.header('x-total-count', found.length);
  if (search.page === undefined) return reply.send({ data: found });
  const last = Math.max(1, Math.ceil(found.length / search.perPage));
  reply.header('link', pageLinks(request.url, search.page, search.perPage, last));
  const start = (search.page - 1) * search.perPage;
  return reply.send({ data: found.slice(start, start + search.perPage) });
});

app.get('/products/:id', async (request, reply) => {
  const id = /^[0-9]+$/.test(request.params.id) ? Number(request.params.id) : NaN;
  const product = products.find((p) => p.id === id);
  if (!product) return reply.code(404).send({ error: 'Product not found' });
  return reply.send({ data: { ...product, rating: { average: null, count: 0 }, reviews: [] } });
});

app.post('/products', { onRequest: requireAdmin }, async (request, reply) => {
  const error = validateShopProduct(request.body);
  if (error) return reply.code(400).send({ error });
  const { name, description, price, category = null, stock = null } = request.body;
  const product = { id: ++lastId, name, description, price, category, stock };
  products.push(product);
  return reply.code(201).send({ data: product });
});

app.get('/categories', async (request, reply) => {
  const counts = new Map();
  for (const { category } of products) if (category !== null) counts.set(category, (counts.get(category) ?? 0) + 1);
  const data = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([slug, count]) => ({ slug, count }));
  return reply.send({ data });
});

const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
console.log(`listening on ${address}`);
