/**
 * The Bearer verifier's memory of verified tokens (src/auth/verified-tokens.ts):
 * keyed by the whole token, each until its own expiry, at most 1,000 (the
 * oldest forgotten first), tokens over 1 KiB never kept.
 */
import test from 'ava';
import { VerifiedTokens } from '../../../src/auth/verified-tokens.js';
import type { Identity } from '../../../src/auth/identity.js';

const alice: Identity = { username: 'alice', scheme: 'bearer', role: 'admin' };

test('a token is answered until its expiry, then forgotten; another token is not', (t) => {
  const tokens = new VerifiedTokens();
  tokens.remember('a.b.c', alice, 10_000);
  t.is(tokens.get('a.b.c', 9_999), alice);
  t.is(tokens.get('a.b.d', 9_999), undefined, 'only the exact token');
  t.is(tokens.get('a.b.c', 10_000), undefined, 'expired at its exp');
  t.is(tokens.get('a.b.c', 0), undefined, 'and forgotten');
});

test('at most 1,000 tokens: the oldest is forgotten first; tokens over 1 KiB are never kept', (t) => {
  const tokens = new VerifiedTokens();
  for (let index = 0; index <= 1000; index++) tokens.remember(`token-${index}`, alice, Number.MAX_SAFE_INTEGER);
  t.is(tokens.get('token-0', 0), undefined);
  t.is(tokens.get('token-1', 0), alice);
  t.is(tokens.get('token-1000', 0), alice);
  const long = 'x'.repeat(1025);
  tokens.remember(long, alice, Number.MAX_SAFE_INTEGER);
  t.is(tokens.get(long, 0), undefined);
});
