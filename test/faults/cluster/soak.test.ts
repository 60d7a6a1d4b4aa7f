/**
 * The soak with a nemesis, short (issue 29): three instances of the shop on
 * one PostgreSQL (a database of its own on the file's server,
 * postgres-server.ts), four customers writing and reading through all three
 * and a reader on each, for 15 s, while the nemesis kills (-9) and restarts, pauses and resumes the
 * writer and the followers, and stops and starts PostgreSQL; then the checks
 * of test/helpers/soak/soak-checker.ts. `npm run soak` runs a long one
 * (bench/cluster/soak.ts); SOAK_SEED replays another seed here.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { postgresForFile } from '../../helpers/faults/postgres-server.js';
import { runSoak, soakReport, type SoakOptions } from '../../helpers/soak/soak-run.js';

const postgres = postgresForFile();

test('a 15 s soak: kill -9, SIGSTOP and PostgreSQL stopped under writes and reads through three instances; every acknowledged write once everywhere, no id given twice, reads never back in time, the same order events everywhere, every refusal a 503 with Retry-After', async (t) => {
  const database = await postgres.database();
  // Seed 9's nemesis pauses a follower, kills one, pauses the writer, kills it and stops PostgreSQL within the 15 s.
  const seed = Number(process.env.SOAK_SEED ?? 9);
  const options: SoakOptions = { seed, seconds: 15, clients: 4, thinkMs: 30, leaseSeconds: 2, historyFile: join(tmpdir(), `catalogue-soak-${seed}-${process.pid}.jsonl`) };
  const result = await runSoak(database, options);
  t.log(soakReport(options, result));
  t.deepEqual(result.violations, [], `the history is in ${result.historyFile ?? ''}`);
  t.true(Object.values(result.figures.faults).reduce((sum, count) => sum + count, 0) >= 2, 'faults were injected');
  t.true(result.figures.acknowledged > 100, 'the clients got answers');
});
