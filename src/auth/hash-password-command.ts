import { text } from 'node:stream/consumers';
import { hashPassword } from './passwords.js';

/**
 * `node dist/main.js hash-password [password]`: prints an scrypt hash to
 * paste into AUTH_USERS as `user:<hash>`. Reading the password from stdin
 * keeps it out of the shell history and the process list.
 */
export async function runHashPassword(args: readonly string[]): Promise<number> {
  if (args.length > 1) {
    process.stderr.write('catalogue: hash-password takes at most one argument, the password (or reads it from stdin)\n');
    return 2;
  }
  if (args.length === 0 && process.stdin.isTTY) process.stderr.write('Password (then Enter and Ctrl-D): ');
  // One trailing newline is what `echo` or Enter adds; it is not part of the password.
  const password = args[0] ?? (await text(process.stdin)).replace(/\r?\n$/, '');
  if (password === '') {
    process.stderr.write('catalogue: hash-password needs a non-empty password\n');
    return 2;
  }
  process.stdout.write(`${await hashPassword(password)}\n`);
  return 0;
}
