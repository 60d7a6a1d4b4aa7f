import type { StoreDispatch } from '../store-dispatch.js';
import type { JournalBatch } from './journal-entries.js';

/**
 * Applies journaled batches as the live store ran them: the clock set to
 * each batch's time, its commands in order. Reads were never journaled and
 * change nothing, so what is left is exactly the live run's state changes;
 * their answers went out when they ran live, so none is made again.
 */
export function replay(dispatch: StoreDispatch, batches: Iterable<JournalBatch>): number {
  let commands = 0;
  for (const batch of batches) {
    dispatch.clock.set(batch.atMs);
    for (const command of batch.commands) dispatch.apply(command);
    commands += batch.commands.length;
  }
  return commands;
}
