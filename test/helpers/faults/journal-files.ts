/**
 * A journal's files for the recovery tests, read from the format alone
 * ([u32 LE length][u32 LE crc32][payload]), not with the service's reader, so
 * the tests can damage them by hand where they mean to.
 */
import type { ExecutionContext } from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { startService, type RunningService } from '../service/service.js';
import { call, dataOf, type Product } from '../api/product-api.js';

/** A fresh folder under the system's temp folder, removed when the test ends. */
export const tempDir = (t: ExecutionContext, prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

export const startOn = (dataDir: string, env: Readonly<Record<string, string>> = {}): Promise<RunningService> => startService({ env: { DATA_DIR: dataDir, ...env } });

/** startOn, and stopped when the test ends whatever its outcome (a failed assertion ends a test at once; a stop after a stop does nothing). */
export async function serveOn(t: ExecutionContext, dataDir: string, env: Readonly<Record<string, string>> = {}): Promise<RunningService> {
  const service = await startOn(dataDir, env);
  t.teardown(() => service.stop('SIGKILL'));
  return service;
}

/** The one segment a small journal has. */
export function segmentOf(dataDir: string): string {
  const names = readdirSync(join(dataDir, 'journal')).filter((name) => name.endsWith('.log'));
  if (names.length !== 1) throw new Error(`expected one segment, found ${names.join(', ')}`);
  return join(dataDir, 'journal', names[0] as string);
}

export interface FrameSpan {
  readonly offset: number;
  readonly payloadOffset: number;
  readonly end: number;
}

/** Whether only zeros are left from `offset`: the room a segment has made for frames to come (workers/journal/segment-room.ts). */
const onlyZerosFrom = (file: Buffer, offset: number): boolean => file.subarray(offset).every((byte) => byte === 0);

/** The frames of an intact segment, by the format (and their checksums checked, so the test knows the file was whole), up to its room. */
export function framesOf(file: Buffer): FrameSpan[] {
  const frames: FrameSpan[] = [];
  for (let offset = 0; offset < file.length && !onlyZerosFrom(file, offset); ) {
    const length = file.readUInt32LE(offset);
    const end = offset + 8 + length;
    if (end > file.length || crc32(file.subarray(offset + 8, end)) !== file.readUInt32LE(offset + 4)) throw new Error(`segment not intact at ${offset}`);
    frames.push({ offset, payloadOffset: offset + 8, end });
    offset = end;
  }
  return frames;
}

/** Creates products one after the other: each acknowledged write is its own flush, so its own frame. */
export async function createInTurn(service: RunningService, names: readonly string[]): Promise<Product[]> {
  const created: Product[] = [];
  for (const name of names) {
    const response = await call(service, 'POST', '/products', { json: { name, description: `made before the damage`, price: 2.5 } });
    if (response.status !== 201) throw new Error(`POST /products answered ${response.status}`);
    created.push(dataOf<Product>(response));
  }
  return created;
}

/** A folder whose journal holds five frames, the service stopped cleanly: the products made, the segment and its frames. */
export async function journalOfFive(t: ExecutionContext): Promise<{ dataDir: string; made: Product[]; segment: string; frames: FrameSpan[] }> {
  const dataDir = tempDir(t, 'journal-recovery-');
  const service = await serveOn(t, dataDir);
  const made = await createInTurn(service, ['one', 'two', 'three', 'four', 'five']);
  t.deepEqual(await service.stop(), { code: 0, signal: null });
  const segment = segmentOf(dataDir);
  const frames = framesOf(readFileSync(segment));
  t.is(frames.length, 5, 'one frame per acknowledged write made in turn');
  return { dataDir, made, segment, frames };
}

export function flipByte(path: string, offset: number): void {
  const file = readFileSync(path);
  file[offset] = (file[offset] as number) ^ 0x5a;
  writeFileSync(path, file);
}
