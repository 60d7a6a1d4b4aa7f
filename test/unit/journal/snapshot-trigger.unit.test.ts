import test from 'ava';
import { MAX_SNAPSHOT_TRAFFIC, REPLAY_BUDGET_MS, SnapshotTrigger } from '../../../workers/journal/snapshot-trigger.js';

const MIB = 1024 * 1024;

test('until a replay is timed, the journal may grow to SNAPSHOT_BYTES or the snapshot size, whichever is larger', (t) => {
  t.is(new SnapshotTrigger(64 * MIB, 0).thresholdBytes, 64 * MIB);
  t.is(new SnapshotTrigger(64 * MIB, 200 * MIB).thresholdBytes, 200 * MIB);
});

test('a timed replay lowers the threshold to the replay budget', (t) => {
  const trigger = new SnapshotTrigger(64 * MIB, 200 * MIB);
  // 10 MiB a second: 2 s of replay is 20 MiB, below the traffic floor (200 / 8 = 25 MiB), which binds.
  trigger.replayTimed(100 * MIB, 10_000);
  t.is(trigger.thresholdBytes, Math.round((200 * MIB) / MAX_SNAPSHOT_TRAFFIC));
  // 20 MiB a second: 40 MiB of replay in the budget.
  trigger.replayTimed(20 * MIB, 1_000);
  t.is(trigger.thresholdBytes, Math.round((REPLAY_BUDGET_MS / 1_000) * 20 * MIB));
});

test('the replay budget never raises the threshold above the size rule', (t) => {
  const trigger = new SnapshotTrigger(4096, 0);
  trigger.replayTimed(MIB, 200);
  t.is(trigger.thresholdBytes, 4096);
});

test('a replay too short to time says nothing of the speed', (t) => {
  const trigger = new SnapshotTrigger(64 * MIB, 0);
  trigger.replayTimed(1_000, 5);
  trigger.replayTimed(0, 500);
  t.is(trigger.thresholdBytes, 64 * MIB);
});

test('a new snapshot moves the traffic floor with its size', (t) => {
  const trigger = new SnapshotTrigger(64 * MIB, 0);
  trigger.replayTimed(MIB, 1_000);
  t.is(trigger.thresholdBytes, 2 * MIB);
  trigger.snapshotTaken(80 * MIB);
  t.is(trigger.thresholdBytes, 10 * MIB);
});

test('the journal written while a snapshot was made is left room in the next replay budget', (t) => {
  const trigger = new SnapshotTrigger(64 * MIB, 0);
  // 1 MiB a second: 2 MiB of replay in the budget, 0.5 MiB of it already written as the snapshot landed.
  trigger.replayTimed(MIB, 1_000);
  trigger.snapshotTaken(4 * MIB, MIB / 2);
  t.is(trigger.thresholdBytes, 2 * MIB - MIB / 2);
  // More than the budget written meanwhile: the traffic floor (4 / 8 MiB) binds.
  trigger.snapshotTaken(4 * MIB, 3 * MIB);
  t.is(trigger.thresholdBytes, MIB / 2);
});
