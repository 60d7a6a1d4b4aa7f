// The catalogue's products contract (CONTRACT.md section 2) written the way a
// Fastify 5 user would: an array store and plain route handlers. A benchmark
// peer only: PORT from the environment (0 picks a free one).
import Fastify from 'fastify';

const products = [
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
function parseId(raw) {
  return /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
}

// Returns an error message, or undefined when the body is a valid product.
function validate(body) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'name, description and price are required';
  const { name, description, price } = body;
  if (!name || !description || !price) return 'name, description and price are required';
  if (typeof name !== 'string') return 'name must be a string';
  if (typeof description !== 'string') return 'description must be a string';
  if (typeof price !== 'number' || !Number.isFinite(price)) return 'price must be a finite number';
  return undefined;
}

const app = Fastify({ logger: false });

app.get('/products', async (request, reply) => {
  return reply.send({ data: products });
});

app.get('/products/:id', async (request, reply) => {
  const id = parseId(request.params.id);
  const product = products.find((p) => p.id === id);
  if (!product) return reply.code(404).send({ error: 'Product not found' });
  return reply.send({ data: product });
});

app.post('/products', async (request, reply) => {
  const error = validate(request.body);
  if (error) return reply.code(400).send({ error });
  const { name, description, price } = request.body;
  const product = { id: products.length + 1, name, description, price };
  products.push(product);
  return reply.code(201).send({ data: product });
});

app.put('/products/:id', async (request, reply) => {
  const id = parseId(request.params.id);
  const product = products.find((p) => p.id === id);
  if (!product) return reply.code(404).send({ error: 'Product not found' });
  const error = validate(request.body);
  if (error) return reply.code(400).send({ error });
  const { name, description, price } = request.body;
  Object.assign(product, { name, description, price });
  return reply.send({ data: product });
});

app.delete('/products/:id', async (request, reply) => {
  const id = parseId(request.params.id);
  const index = products.findIndex((p) => p.id === id);
  if (index === -1) return reply.code(404).send({ error: 'Product not found' });
  products.splice(index, 1);
  return reply.code(204).send();
});

const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
console.log(`listening on ${address}`);
