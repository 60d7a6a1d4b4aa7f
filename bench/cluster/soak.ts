/**
 * Issue 29's soak with a nemesis, long: three instances of the shop on one
 * embedded PostgreSQL, clients writing and reading through all three while
 * the nemesis kills (-9) and restarts, pauses and resumes the writer and the
 * followers, and stops and starts PostgreSQL; then the checks and the
 * figures (test/helpers/soak/: the cluster, clients, nemesis, history,
 * checker). Exit code 1 when a check failed, the history written to a file.
 *
 *   npm run soak -- [--seed N] [--duration 60] [--clients 6] [--think 20] [--lease 2] [--history FILE]
 *
 * (`npm run soak` builds dist/ first; this script runs from source.) The
 * seed is printed: the same seed replays the same choices (the machine's
 * timing differs from run to run).
 */
import { randomInt } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgresServer } from '../../test/helpers/faults/embedded-postgres.js';
import { runSoak, soakReport, type SoakOptions } from '../../test/helpers/soak/soak-run.js';

const args = process.argv.slice(2);
const valueOf = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const KNOWN = ['--seed', '--duration', '--clients', '--think', '--lease', '--history'];
for (let index = 0; index < args.length; index += 2) {
  if (!KNOWN.includes(args[index] ?? '') || args[index + 1] === undefined) throw new Error(`unknown option ${args[index] ?? ''} (${KNOWN.join(' X, ')} X)`);
}
const count = (name: string, fallback: number, min: number): number => {
  const value = Number(valueOf(name) ?? fallback);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number of at least ${min}`);
  return value;
};

const seed = count('--seed', randomInt(1, 1_000_000), 0);
const history = valueOf('--history');
const options: SoakOptions = {
  seed,
  seconds: count('--duration', 60, 1),
  clients: count('--clients', 6, 1),
  thinkMs: count('--think', 20, 0),
  // The service takes LEASE_SECONDS from 2.
  leaseSeconds: count('--lease', 2, 2),
  historyFile: history ?? join(tmpdir(), `catalogue-soak-${seed}.jsonl`),
  keepHistory: history !== undefined,
};

const server = await startPostgresServer();
try {
  console.error(`soak: seed ${seed}, ${options.seconds} s, ${options.clients} clients; the history goes to ${options.historyFile} on a failure`);
  const result = await runSoak(await server.database(), options);
  console.log(soakReport(options, result));
  process.exitCode = result.violations.length === 0 ? 0 : 1;
} finally {
  await server.end();
}
