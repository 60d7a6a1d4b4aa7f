import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.js';

/**
 * DATA_DIR: made if it is missing, and it must be a folder this process can
 * write, checked now rather than at the first acknowledged write. Empty or
 * unset: no journal, everything in memory as the seed says.
 */
export function dataDirSetting(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const dir = resolve(raw);
  try {
    mkdirSync(dir, { recursive: true });
    if (!statSync(dir).isDirectory()) throw new ConfigError(`DATA_DIR must be a folder (got "${raw}", which is a file)`);
    accessSync(dir, constants.W_OK | constants.R_OK);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`DATA_DIR must be a folder this process can read and write (got "${raw}": ${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return dir;
}
