/**
 * Issue found by test/faults/journal/journal-recovery.test.ts's neighbours: the reader takes
 * any frame whose length runs past the end of the file for a torn tail
 * (journal-frame.ts: `tail` is true when the frame "runs past the end"), and
 * cuts it. A crash tears only the last frame, whose length field is whole; a
 * length that runs past the end while whole, checksummed frames follow it is
 * damage. One flipped bit in the third byte of an earlier frame's length (the
 * length grows by 65536) now makes the start cut every frame from there on,
 * acknowledged writes included, and say that nothing cut had been
 * acknowledged. Marked failing until the reader tells the two apart.
 */
import test from 'ava';
import { readFileSync, statSync } from 'node:fs';
import { listProducts } from '../../helpers/api/product-api.js';
import { flipByte, journalOfFive, startOn, type FrameSpan } from '../../helpers/faults/journal-files.js';

test('a damaged length in a frame before the tail (the second of five) stops the start with exit 2; it is not cut as a torn tail with three acknowledged frames after it', async (t) => {
  const { dataDir, made, segment, frames } = await journalOfFive(t);
  flipByte(segment, (frames[1] as FrameSpan).offset + 2);
  const before = readFileSync(segment);
  try {
    const service = await startOn(dataDir);
    const kept = (await listProducts(service)).slice(10).map((product) => product.name);
    await service.stop();
    t.fail(`the start served, keeping ${JSON.stringify(kept)} of ${JSON.stringify(made.map((product) => product.name))}; the segment was cut from ${before.length} to ${statSync(segment).size} bytes; stderr: ${service.stderr()}`);
  } catch (error) {
    t.regex((error as Error).message, /exited with 2 before listening/);
    t.regex((error as Error).message, new RegExp(segment.replaceAll('/', '\\/')));
  }
  t.deepEqual(readFileSync(segment), before, 'a refused journal is left as it was');
});
