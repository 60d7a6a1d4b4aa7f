import { Buffer } from 'node:buffer';

/** Bytes of each part: a few dozen products, and a size the allocator hands out without a new mapping. */
const PART_BYTES = 64 * 1024;
const COMMA = 0x2c;
/** UTF-8 takes at most 3 bytes for a UTF-16 unit (a surrogate pair: 4 bytes for 2). */
const MOST_BYTES_PER_UNIT = 3;

/**
 * A long answer's body written as UTF-8 straight into buffers of
 * PART_BYTES, text after text. Each buffer is its own ArrayBuffer, made for
 * this answer: the worker moves it to the front with the answer (a
 * transfer, see answer-transfers.ts), so the bytes are neither copied nor
 * left in the worker. (Left there, as shared bytes were, they were freed
 * only when the worker's collector ran, and nothing it saw made it run: in
 * scenario j, 1,000 products an answer, the worker held 2.1 GB of answered
 * parts after 10 s, 16 MB after a forced collection.) Written text by text,
 * each product's JSON is encoded once and no long string is built and
 * measured first: at 1,000 products a few times less work than joining the
 * texts into strings of 32 KB and encoding those (what this and the texts
 * kept by products/recent-texts.ts did to scenario j: bench/RESULTS.md).
 */
export class AnswerParts {
  readonly #parts: Uint8Array[] = [];
  /** Empty until the first text: its size is then known. */
  #part = Buffer.alloc(0);
  #used = 0;

  /** Appends `text`, after a comma when `comma`. */
  add(text: string, comma: boolean): void {
    const most = text.length * MOST_BYTES_PER_UNIT + 1;
    if (this.#used + most > this.#part.length) this.#startPart(most);
    if (comma) this.#part[this.#used++] = COMMA;
    this.#used += this.#part.write(text, this.#used);
  }

  /** The parts, the last one cut to what was written; the writer is done. */
  finish(): Uint8Array[] {
    this.#parts.push(this.#part.subarray(0, this.#used));
    return this.#parts;
  }

  #startPart(least: number): void {
    if (this.#used > 0) this.#parts.push(this.#part.subarray(0, this.#used));
    this.#part = Buffer.allocUnsafeSlow(Math.max(PART_BYTES, least));
    this.#used = 0;
  }
}
