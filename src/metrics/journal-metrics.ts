import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { StoreNotice } from '../../workers/store-protocol.js';
import type { RecoverySummary } from '../../workers/store-start-protocol.js';

/**
 * The journal's side of /metrics (DATA_DIR): flushes and what they carried,
 * how long each took to reach the disk, the age of the newest snapshot, and
 * whether the disk is full (with the flushes it refused). Fed by the store
 * worker's notices, so counting costs the worker nothing.
 */
export function journalMetrics(registry: Registry, recovery: RecoverySummary | undefined): (notice: StoreNotice) => void {
  const flushes = new Counter({ name: 'catalogue_journal_flushes_total', help: 'Group commits written and synced to disk', registers: [registry] });
  const commands = new Counter({ name: 'catalogue_journal_commands_total', help: 'Store commands made durable by the journal', registers: [registry] });
  const bytes = new Counter({ name: 'catalogue_journal_bytes_total', help: 'Bytes appended to the journal', registers: [registry] });
  const flushTime = new Histogram({
    name: 'catalogue_journal_flush_seconds',
    help: 'Time from a flush being handed to the disk to its fdatasync returning',
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
    registers: [registry],
  });
  const refused = new Counter({
    name: 'catalogue_journal_refused_flushes_total',
    help: 'Flushes the disk had no room for: each undid its commands and those after it (the store reloaded to the journal)',
    registers: [registry],
  });
  const undone = new Counter({ name: 'catalogue_journal_undone_commands_total', help: 'Store commands undone because the disk had no room for their flush (answered 503)', registers: [registry] });
  const storageFull = new Gauge({ name: 'catalogue_journal_storage_full', help: '1 while the disk of DATA_DIR has no room for the journal (writes refused), else 0', registers: [registry] });
  storageFull.set(0);
  let lastSeq = recovery?.lastSeq ?? 0;
  let snapshotAtMs = recovery?.snapshotAtMs;
  new Gauge({
    name: 'catalogue_journal_sequence',
    help: 'Sequence number of the last durable store command',
    registers: [registry],
    collect() {
      this.set(lastSeq);
    },
  });
  new Gauge({
    name: 'catalogue_journal_snapshot_age_seconds',
    help: 'Seconds since the newest snapshot was written (-1: none yet; recovery replays the whole journal)',
    registers: [registry],
    collect() {
      this.set(snapshotAtMs === undefined ? -1 : (Date.now() - snapshotAtMs) / 1000);
    },
  });
  return (notice) => {
    if (notice.notice === 'flushed') {
      flushes.inc();
      commands.inc(notice.commands);
      bytes.inc(notice.bytes);
      flushTime.observe(notice.seconds);
      lastSeq = notice.seq;
    } else if (notice.notice === 'snapshot') {
      snapshotAtMs = notice.atMs;
    } else if (notice.notice === 'storage-full') {
      refused.inc();
      undone.inc(notice.undone);
      storageFull.set(1);
    } else if (notice.notice === 'storage-available') {
      storageFull.set(0);
    }
  };
}
