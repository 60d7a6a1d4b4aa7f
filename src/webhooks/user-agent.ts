import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How far up from this module the project's package.json may be: dist/, build/src/webhooks/ or src/webhooks/. */
const LEVELS = 5;

/**
 * `catalogue-webhooks/<version>`: the user-agent of every delivery, so a
 * receiver's logs say who called. The version is the project's
 * package.json's, read once at start-up from the nearest one named
 * `catalogue` above this module (bundled or not); `0` if none is found.
 */
export function webhookUserAgent(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level < LEVELS; level++) {
    try {
      const { name, version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (name === 'catalogue' && typeof version === 'string') return `catalogue-webhooks/${version}`;
    } catch {
      // None here: one folder up.
    }
    folder = dirname(folder);
  }
  return 'catalogue-webhooks/0';
}
