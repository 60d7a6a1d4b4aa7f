/**
 * How a flush lies on disk: one frame per flush, `[length u32][crc32 u32]
 * [payload]`, little-endian, the CRC over the payload. A flush is written
 * whole, then synced, and the next begins only after, so a crash can tear
 * only the last frame: reading stops there and says why, and the caller
 * decides whether that is a tail to cut or damage in the middle.
 */
import { crc32 } from 'node:zlib';
import { SEGMENT_ROOM_BYTES } from './data-dir-layout.js';

export const FRAME_HEADER_BYTES = 8;

/** Far above any flush (a batch is bounded by STORE_QUEUE_LIMIT commands of at most BODY_LIMIT): a longer length is damage. */
const MAX_FRAME_BYTES = 1024 ** 3;

export function encodeFrame(payload: string): Buffer {
  const body = Buffer.from(payload, 'utf8');
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + body.length);
  frame.writeUInt32LE(body.length, 0);
  frame.writeUInt32LE(crc32(body), 4);
  body.copy(frame, FRAME_HEADER_BYTES);
  return frame;
}

export type FrameStop =
  /** The file ends cleanly after the last whole frame. */
  | { readonly kind: 'end' }
  /**
   * Only zeros follow the last whole frame, from `offset` to an end at a
   * multiple of SEGMENT_ROOM_BYTES: room the writer made for frames to come
   * (segment-room.ts), where the next frame is written.
   */
  | { readonly kind: 'room'; readonly offset: number }
  /**
   * The frame at `offset` is not whole or not intact. `tail` says whether
   * nothing readable follows it (the frame runs past the end, or it is the
   * last bytes of the file, or only zeros follow): what a crash mid-write
   * leaves, as opposed to damage with good data after it.
   */
  | { readonly kind: 'bad'; readonly offset: number; readonly reason: string; readonly tail: boolean };

export interface FrameScan {
  readonly payloads: string[];
  readonly stop: FrameStop;
}

/**
 * Whether a whole, intact frame starts anywhere after `from`. A damaged
 * length can make a frame seem to run past the end of the file; only a
 * search for a good frame behind it tells damage from a torn tail. It runs
 * only on a bad frame, and the checksum is computed only where a length fits.
 */
function goodFrameAfter(file: Buffer, from: number): boolean {
  for (let offset = from + 1; offset + FRAME_HEADER_BYTES < file.length; offset++) {
    const length = file.readUInt32LE(offset);
    const end = offset + FRAME_HEADER_BYTES + length;
    if (length === 0 || length > MAX_FRAME_BYTES || end > file.length) continue;
    if (crc32(file.subarray(offset + FRAME_HEADER_BYTES, end)) === file.readUInt32LE(offset + 4)) return true;
  }
  return false;
}

function onlyZeros(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0) return false;
  return true;
}

export function readFrames(file: Buffer): FrameScan {
  const payloads: string[] = [];
  let offset = 0;
  while (offset < file.length) {
    // Only zeros after the frame's claimed end: a write torn in the segment's room (segment-room.ts).
    const bad = (reason: string, end: number): FrameScan => ({
      payloads,
      stop: { kind: 'bad', offset, reason, tail: (end >= file.length || onlyZeros(file.subarray(offset)) || onlyZeros(file.subarray(end))) && !goodFrameAfter(file, offset) },
    });
    // A frame's first byte may be 0 too (a length of 256): only a run of zeros to a room-sized end is room.
    if (file[offset] === 0 && file.length % SEGMENT_ROOM_BYTES === 0 && onlyZeros(file.subarray(offset))) return { payloads, stop: { kind: 'room', offset } };
    if (offset + FRAME_HEADER_BYTES > file.length) return bad('a frame header cut short', file.length);
    const length = file.readUInt32LE(offset);
    const end = offset + FRAME_HEADER_BYTES + length;
    if (length === 0 || length > MAX_FRAME_BYTES) return bad(`a frame length of ${length}`, offset + FRAME_HEADER_BYTES);
    if (end > file.length) return bad('a frame cut short', file.length);
    const body = file.subarray(offset + FRAME_HEADER_BYTES, end);
    if (crc32(body) !== file.readUInt32LE(offset + 4)) return bad('a frame whose checksum does not match', end);
    payloads.push(body.toString('utf8'));
    offset = end;
  }
  return { payloads, stop: { kind: 'end' } };
}
