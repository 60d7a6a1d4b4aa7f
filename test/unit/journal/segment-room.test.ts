/**
 * A segment's room (workers/journal/segment-room.ts): flushes are written
 * into zeros made ahead of them, the file's length stays a multiple of
 * SEGMENT_ROOM_BYTES, and recovery reads those zeros as room (nothing cut,
 * no torn tail reported, appending goes on at the frames' end), while a run
 * of zeros to any other length is still a torn tail.
 */
import test from 'ava';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEGMENT_ROOM_BYTES, journalDir, segmentFile } from '../../../workers/journal/data-dir-layout.js';
import { batchEntry, flushPayload } from '../../../workers/journal/journal-entries.js';
import { encodeFrame, readFrames } from '../../../workers/journal/journal-frame.js';
import { readJournal } from '../../../workers/journal/journal-reader.js';
import { SegmentWriter } from '../../../workers/journal/segment-writer.js';
import { waitFor } from '../../helpers/wait-for.js';

const command = (name: string): string => JSON.stringify({ kind: 'product.create', fields: { name, description: name, price: 1 } });
const flush = (firstSeq: number, count: number): string =>
  flushPayload([batchEntry(1_700_000_000_000, firstSeq, `[${Array.from({ length: count }, (_, index) => command(`p${firstSeq + index}`)).join(',')}]`)]);

function dataDir(t: { teardown: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'segment-room-'));
  mkdirSync(journalDir(dir), { recursive: true });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('flushes go into room made ahead of them; a restart reads the zeros as room, cuts nothing and goes on at the frames end', async (t) => {
  const dir = dataDir(t);
  const writer = new SegmentWriter(dir, 1, 0, 0);
  let seq = 1;
  for (let index = 0; index < 40; index++) {
    await writer.append(flush(seq, 5), seq);
    seq += 5;
  }
  const segment = segmentFile(dir, 1);
  await waitFor('the room made', () => statSync(segment).size % SEGMENT_ROOM_BYTES === 0 && statSync(segment).size > 0);
  writer.close();
  const read = readJournal(dir, 0, { cutTornTail: true });
  t.is(read.lastSeq, 200);
  t.is(read.cut, undefined, 'room is not a torn tail');
  t.is(statSync(segment).size % SEGMENT_ROOM_BYTES, 0, 'nothing was cut');
  t.true((read.newest?.bytes ?? 0) < statSync(segment).size);

  const again = new SegmentWriter(dir, 1, read.newest?.bytes ?? 0, read.bytes);
  await again.append(flush(seq, 3), seq);
  again.close();
  const reread = readJournal(dir, 0, { cutTornTail: true });
  t.is(reread.lastSeq, 203);
  t.is(reread.cut, undefined);
  t.deepEqual(
    reread.batches.map((batch) => batch.firstSeq),
    Array.from({ length: 41 }, (_, index) => 1 + index * 5),
  );
});

test('zeros after the last frame to a length that is not a multiple of the room are a torn tail, as before', (t) => {
  const dir = dataDir(t);
  const segment = segmentFile(dir, 1);
  appendFileSync(segment, encodeFrame(flush(1, 2)));
  appendFileSync(segment, Buffer.alloc(4096));
  const scan = readFrames(readFileSync(segment));
  t.is(scan.stop.kind, 'bad');
  const read = readJournal(dir, 0, { cutTornTail: true });
  t.is(read.lastSeq, 2);
  t.is(read.cut?.bytes, 4096);
});

test('a frame whose first byte is zero (a length of 256) before room is read as a frame, not as room', (t) => {
  const frames: Buffer[] = [];
  // Pad a payload to exactly 256 bytes: its length field begins with a zero byte.
  let payload = flush(1, 1);
  payload = `${payload.slice(0, -1)}${' '.repeat(256 - payload.length)}]`;
  frames.push(encodeFrame(payload));
  const body = Buffer.concat(frames);
  t.is(body[0], 0);
  const file = Buffer.concat([body, Buffer.alloc(SEGMENT_ROOM_BYTES - body.length)]);
  const scan = readFrames(file);
  t.is(scan.payloads.length, 1);
  t.deepEqual(scan.stop, { kind: 'room', offset: body.length });
});
