/**
 * The access log's query (src/http/redacted-query.ts): the values of
 * parameters that may hold a credential are masked however the name is
 * spelt for a query parser; everything else is left as the client sent it.
 */
import test from 'ava';
import { QUERY_API_KEY } from '../../../src/auth/presented-key.js';
import { isCredentialName, redactedQuery } from '../../../src/http/redacted-query.js';

test('no query, or an empty one, is no query', (t) => {
  t.is(redactedQuery('/products'), undefined);
  t.is(redactedQuery('/products?'), undefined);
});

test('the API key parameter keeps its name and loses its value; the API\'s own parameters are left as sent', (t) => {
  t.true(isCredentialName(QUERY_API_KEY));
  t.is(redactedQuery('/products?category=brewers&api_key=K-1&page=2&per_page=5&sort=price_asc'), 'category=brewers&api_key=[redacted]&page=2&per_page=5&sort=price_asc');
  t.is(redactedQuery('/products?q=caf%C3%A9+noir&min_price=1&max_price=9&in_stock=true'), 'q=caf%C3%A9+noir&min_price=1&max_price=9&in_stock=true');
  t.is(redactedQuery('/orders?status=paid&userId=7'), 'status=paid&userId=7');
});

test('every occurrence is masked, and so are spellings a parser reads as the same name, and a bare name', (t) => {
  t.is(redactedQuery('/p?api_key=A&api_key=B'), 'api_key=[redacted]&api_key=[redacted]');
  t.is(redactedQuery('/p?api%5Fkey=A&API-KEY=B'), 'api%5Fkey=[redacted]&API-KEY=[redacted]');
  t.is(redactedQuery('/p?api_key'), 'api_key=[redacted]');
});

test('credentials a client puts where the service does not read them are masked too', (t) => {
  t.is(redactedQuery('/token/refresh?refreshToken=R&access_token=A&password=P&client_secret=S&sig=x'), 'refreshToken=[redacted]&access_token=[redacted]&password=[redacted]&client_secret=[redacted]&sig=x');
});

test('a malformed escape in another name does not stop the masking', (t) => {
  t.is(redactedQuery('/p?bad%E0%A4%A=1&api_key=K'), 'bad%E0%A4%A=1&api_key=[redacted]');
});
