import test from 'ava';
import { Buffer } from 'node:buffer';
import { isJsonContentType, parseJsonBytes } from '../../../src/http/request-body.js';

test('JSON media types are recognised in any case, with any parameters, and +json suffixes', (t) => {
  for (const type of [undefined, 'application/json', 'Application/JSON', 'application/json; charset=latin1', 'application/merge-patch+json', 'application/vnd.api+json;v=2']) {
    t.true(isJsonContentType(type), String(type));
  }
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json+', 'json']) {
    t.false(isJsonContentType(type), type);
  }
});

test('an empty body counts as an empty object', (t) => {
  t.deepEqual(parseJsonBytes(Buffer.alloc(0)), { kind: 'parsed', value: {} });
});

test('a syntax error reports the parser message', (t) => {
  const outcome = parseJsonBytes(Buffer.from('{"name": '));
  t.is(outcome.kind, 'unparsable');
  if (outcome.kind === 'unparsable') t.regex(outcome.message, /JSON|Unexpected/);
});

test('bytes that are not UTF-8 are a parse error, not mojibake', (t) => {
  const outcome = parseJsonBytes(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]));
  t.deepEqual(outcome, { kind: 'unparsable', message: 'Request body is not valid UTF-8' });
});

test('__proto__ and constructor.prototype keys are dropped, the rest is kept', (t) => {
  const outcome = parseJsonBytes(Buffer.from('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"name":"a","nested":{"__proto__":{"x":1},"ok":true}}'));
  t.is(outcome.kind, 'parsed');
  const value = (outcome as { value: Record<string, unknown> }).value;
  t.deepEqual(Object.keys(value), ['name', 'nested']);
  t.false(Object.hasOwn(value, '__proto__'));
  t.deepEqual(value.nested, { ok: true });
  t.is(({} as Record<string, unknown>).polluted, undefined);
});

test('a byte-order mark before the JSON is tolerated', (t) => {
  t.deepEqual(parseJsonBytes(Buffer.from('\uFEFF{"a":1}')), { kind: 'parsed', value: { a: 1 } });
});
