// The catalogue's products contract (CONTRACT.md section 2) on bare node:http:
// no framework, no router, a Map of products. It is the ceiling of the
// comparison: what Node itself costs per request when nothing stands between
// the socket and the handler. The data work (JSON.stringify of the answer,
// JSON.parse of a body) is done plainly, as in the other peers, so the gap to
// them is the framework and the gap to the service is its design. A
// benchmark peer only: PORT from the environment (0 picks a free one).
import { createServer } from 'node:http';
import { parseId, seedProducts, validate } from './product-contract.js';

const products = new Map(seedProducts().map((product) => [product.id, product]));
// The next id is one past the highest ever handed out, not the count plus one
// of the array peers: a Map holds one product per id, so reusing an id after
// a delete would overwrite a product (and make a concurrent DELETE of it 404)
// where the arrays keep both. After POSTs alone both rules give ids 1..n.
let highestId = Math.max(...products.keys());

/** Fastify's default body limit, so an oversized body is refused alike. */
const BODY_LIMIT = 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';
const NOT_FOUND = { error: 'Product not found' };

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

// Calls `handle` with the parsed JSON body, or answers the error itself.
function withJsonBody(req, res, handle) {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    req.resume();
    return send(res, 415, { error: 'Content-Type must be application/json' });
  }
  const chunks = [];
  let length = 0;
  req.on('data', (chunk) => {
    length += chunk.length;
    if (length <= BODY_LIMIT) chunks.push(chunk);
  });
  req.on('end', () => {
    if (length > BODY_LIMIT) return send(res, 413, { error: 'Request body is too large' });
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { error: 'Request body is not valid JSON' });
    }
    handle(body);
  });
}

function create(req, res) {
  withJsonBody(req, res, (body) => {
    const error = validate(body);
    if (error) return send(res, 400, { error });
    const { name, description, price } = body;
    const product = { id: ++highestId, name, description, price };
    products.set(product.id, product);
    send(res, 201, { data: product });
  });
}

function replace(req, res, id) {
  const product = products.get(id);
  if (!product) {
    req.resume();
    return send(res, 404, NOT_FOUND);
  }
  withJsonBody(req, res, (body) => {
    const error = validate(body);
    if (error) return send(res, 400, { error });
    const { name, description, price } = body;
    // Replaced in place: a Map keeps the key's position, so the list order stays.
    Object.assign(product, { name, description, price });
    send(res, 200, { data: product });
  });
}

const ITEM = /^\/products\/([^/]+)$/;

const server = createServer((req, res) => {
  const query = req.url.indexOf('?');
  const path = query === -1 ? req.url : req.url.slice(0, query);
  if (path === '/products') {
    if (req.method === 'GET') return send(res, 200, { data: [...products.values()] });
    if (req.method === 'POST') return create(req, res);
  } else {
    const match = ITEM.exec(path);
    if (match) {
      const id = parseId(match[1]);
      if (req.method === 'GET') {
        const product = products.get(id);
        return product ? send(res, 200, { data: product }) : send(res, 404, NOT_FOUND);
      }
      if (req.method === 'PUT') return replace(req, res, id);
      if (req.method === 'DELETE') {
        if (!products.delete(id)) return send(res, 404, NOT_FOUND);
        res.writeHead(204);
        return res.end();
      }
    }
  }
  req.resume();
  send(res, 404, { error: 'Not found' });
});

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
