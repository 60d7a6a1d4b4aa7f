// The catalogue's products contract (CONTRACT.md section 2) written the way a
// Fastify 5 user would: an array store and plain route handlers. A benchmark
// peer only: PORT from the environment (0 picks a free one).
import Fastify from 'fastify';
import { parseId, seedProducts, validate } from './product-contract.js';

const products = seedProducts();

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
