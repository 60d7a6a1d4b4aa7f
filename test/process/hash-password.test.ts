/**
 * `node dist/main.js hash-password`, which makes AUTH_USERS hashes: the
 * password from stdin or its one argument, the hash on the last stdout line,
 * and a refusal (exit 2, one stderr line) for anything else. A command of the
 * binary, so each case runs it.
 */
import test from 'ava';
import { Buffer } from 'node:buffer';
import { scryptSync, timingSafeEqual } from 'node:crypto';
import { runToExit } from '../helpers/service/service.js';
import { SCRYPT_HASH } from '../helpers/api/auth-api.js';

/** Checks an `scrypt.<log2 N>.<r>.<p>.<salt>.<hash>` line against a password, independently of the service. */
function hashMatches(line: string, password: string): boolean {
  const [, log2N, r, p, salt = '', hash = ''] = line.split('.');
  const expected = Buffer.from(hash, 'base64url');
  const N = 2 ** Number(log2N);
  const derived = scryptSync(password, Buffer.from(salt, 'base64url'), expected.length, { N, r: Number(r), p: Number(p), maxmem: 256 * N * Number(r) });
  return timingSafeEqual(derived, expected);
}

const lastLine = (stdout: string): string => stdout.trimEnd().split('\n').at(-1) ?? '';

test('hash-password reads the password from stdin and prints its scrypt hash as the last stdout line', async (t) => {
  const exit = await runToExit({ args: ['hash-password'], input: 'correct horse battery staple\n' });
  t.is(exit.code, 0, exit.stderr);
  const hash = lastLine(exit.stdout);
  t.regex(hash, SCRYPT_HASH);
  // The trailing newline from the terminal is not part of the password.
  t.true(hashMatches(hash, 'correct horse battery staple'));
  t.false(hashMatches(hash, 'correct horse battery staple\n'));
  t.false(exit.stdout.includes('correct horse'), 'the password is echoed');
});

test('hash-password takes the password as its one argument instead', async (t) => {
  const exit = await runToExit({ args: ['hash-password', 'Tr0ub4dor&3'] });
  t.is(exit.code, 0, exit.stderr);
  const hash = lastLine(exit.stdout);
  t.regex(hash, SCRYPT_HASH);
  t.true(hashMatches(hash, 'Tr0ub4dor&3'));
  t.false(exit.stdout.includes('Tr0ub4dor'), 'the password is echoed');
});

test('hash-password salts at random: two runs for one password give different hashes, both valid', async (t) => {
  const [first, second] = await Promise.all([
    runToExit({ args: ['hash-password'], input: 'same password\n' }),
    runToExit({ args: ['hash-password', 'same password'] }),
  ]);
  const [a, b] = [lastLine(first.stdout), lastLine(second.stdout)];
  t.regex(a, SCRYPT_HASH);
  t.regex(b, SCRYPT_HASH);
  t.not(a, b);
  t.not(a.split('.')[4], b.split('.')[4], 'same salt');
  t.true(hashMatches(a, 'same password'));
  t.true(hashMatches(b, 'same password'));
});

for (const [title, options] of [
  ['empty stdin', { args: ['hash-password'], input: '' }],
  ['a bare newline on stdin', { args: ['hash-password'], input: '\n' }],
  ['an empty argument', { args: ['hash-password', ''] }],
  ['two arguments', { args: ['hash-password', 'one', 'two'] }],
] as const) {
  test(`hash-password refuses ${title}: exit 2, one stderr line, no hash`, async (t) => {
    const exit = await runToExit(options);
    t.is(exit.code, 2, exit.stderr);
    t.is(exit.stderr.trim().split('\n').length, 1, exit.stderr);
    t.notRegex(exit.stdout, /scrypt\./);
  });
}
