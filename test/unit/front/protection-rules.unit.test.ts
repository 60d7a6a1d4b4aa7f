import test from 'ava';
import { parseProtect, schemeFor } from '../../../src/auth/protection-rules.js';

test('an exact path beats *, then an exact method beats *', (t) => {
  const rules = parseProtect('* *=apikey,GET *=basic,* /products/:id=bearer,DELETE /products/:id=none');
  t.is(schemeFor(rules, 'POST', '/products'), 'apikey');
  t.is(schemeFor(rules, 'GET', '/products'), 'basic');
  t.is(schemeFor(rules, 'GET', '/products/:id'), 'bearer');
  t.is(schemeFor(rules, 'DELETE', '/products/:id'), 'none');
});

test('without rules nothing is protected but GET /me, which is bearer', (t) => {
  const rules = parseProtect('');
  t.is(schemeFor(rules, 'GET', '/products'), 'none');
  t.is(schemeFor(rules, 'GET', '/me'), 'bearer');
});

test('any matching rule, even a wildcard, replaces the GET /me default', (t) => {
  t.is(schemeFor(parseProtect('* *=apikey'), 'GET', '/me'), 'apikey');
  t.is(schemeFor(parseProtect('POST /products=basic'), 'GET', '/me'), 'bearer');
});

test('methods and schemes are read case-insensitively, spaces around = are allowed', (t) => {
  t.deepEqual(parseProtect(' post /products = Bearer ,'), [{ method: 'POST', path: '/products', scheme: 'bearer' }]);
});

test('malformed rules are refused with a message naming the rule', (t) => {
  t.throws(() => parseProtect('GET /products'), { message: /"GET \/products" must look like "METHOD PATH=SCHEME"/ });
  t.throws(() => parseProtect('PATCH /products=basic'), { message: /method must be one of/ });
  t.throws(() => parseProtect('GET products=basic'), { message: /path must be a route/ });
  t.throws(() => parseProtect('GET /products=oauth'), { message: /scheme must be one of/ });
  t.throws(() => parseProtect('GET /products=basic,get /products=apikey'), { message: /names GET \/products twice/ });
});
