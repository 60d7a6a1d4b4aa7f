// The catalogue's products contract (CONTRACT.md section 2) written the way
// the Express 5 tutorials do it: express.json() and an array with find,
// findIndex and splice. A benchmark peer only: PORT from the environment (0
// picks a free one).
import express from 'express';
import { parseId, seedProducts, validate } from './product-contract.js';

const products = seedProducts();

const app = express();
app.use(express.json());

app.get('/products', (req, res) => {
  res.json({ data: products });
});

app.get('/products/:id', (req, res) => {
  const product = products.find((p) => p.id === parseId(req.params.id));
  if (!product) return res.status(404).json({ error: 'Product not found' });
  res.json({ data: product });
});

app.post('/products', (req, res) => {
  const error = validate(req.body);
  if (error) return res.status(400).json({ error });
  const { name, description, price } = req.body;
  const product = { id: products.length + 1, name, description, price };
  products.push(product);
  res.status(201).json({ data: product });
});

app.put('/products/:id', (req, res) => {
  const product = products.find((p) => p.id === parseId(req.params.id));
  if (!product) return res.status(404).json({ error: 'Product not found' });
  const error = validate(req.body);
  if (error) return res.status(400).json({ error });
  const { name, description, price } = req.body;
  product.name = name;
  product.description = description;
  product.price = price;
  res.json({ data: product });
});

app.delete('/products/:id', (req, res) => {
  const index = products.findIndex((p) => p.id === parseId(req.params.id));
  if (index === -1) return res.status(404).json({ error: 'Product not found' });
  products.splice(index, 1);
  res.status(204).end();
});

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', (error) => {
  if (error) throw error;
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
