// The catalogue's products contract (CONTRACT.md section 2) written the way
// the Express 5 tutorials do it: express.json() and an array with find,
// findIndex and splice. A benchmark peer only: PORT from the environment (0
// picks a free one).
import express from 'express';

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
const parseId = (raw) => (/^[0-9]+$/.test(raw) ? Number(raw) : NaN);

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
