/**
 * A batch on a follower (DATABASE_URL): reads run here, on this instance's
 * copy; each run of writes goes to the writer as one forward, and the batch
 * goes on only once this copy has applied the journal up to the sequence the
 * writer answered. So the writes' answers leave this instance once their
 * effect shows in it (read-your-writes here), and a read that follows a
 * write in the batch sees it, as on the writer.
 */
import type { StoreCommand, StoreResult } from '../../store-protocol.js';
import type { StoreDispatch } from '../../store-dispatch.js';
import { isForwarded } from '../journal-rules.js';
import type { CommandForwarder } from './command-forwarder.js';
import type { JournalFollower } from './journal-follower.js';

export interface FollowerParts {
  readonly dispatch: StoreDispatch;
  readonly forwarder: CommandForwarder;
  readonly follower: JournalFollower;
  /** Told of every forward, answered or not: its number of commands. */
  readonly forwarded: (commands: number) => void;
}

export async function runOnFollower({ dispatch, forwarder, follower, forwarded }: FollowerParts, commands: readonly StoreCommand[]): Promise<StoreResult[]> {
  const results: StoreResult[] = [];
  let index = 0;
  while (index < commands.length) {
    let end = index;
    // The same rule as the writer's journal: a command it would record is one to forward (the order clock's tick only when an order is due here).
    while (end < commands.length && isForwarded(dispatch.parts, commands[end] as StoreCommand)) end++;
    if (end === index) {
      // Catch-ups in between set the clock to the journal's times: a read reads now.
      results.push(dispatch.executeSafely(commands[index] as StoreCommand));
      index++;
      continue;
    }
    const writes = commands.slice(index, end);
    const outcome = await forwarder.forward(writes);
    forwarded(writes.length);
    if (outcome.kind === 'answered') {
      await follower.untilApplied(outcome.seq);
      results.push(...outcome.results);
    } else {
      for (let each = 0; each < writes.length; each++) results.push({ kind: 'unavailable', code: outcome.code });
    }
    index = end;
  }
  return results;
}
