import { createHash, timingSafeEqual } from 'node:crypto';

interface ApiKey {
  readonly label: string;
  readonly digest: Buffer;
}

/**
 * API_KEYS, parsed: `key1,key2` or `label=key,...`; the first `=` of an entry
 * ends its label, so a key that contains `=` (base64's padding) needs a label
 * before it (`ops=c2VjcmV0=`). Keys are kept as SHA-256
 * digests and every lookup compares against all of them in constant time, so
 * neither a key's content nor its position leaks through timing.
 */
export class ApiKeyRing {
  readonly #keys: readonly ApiKey[];

  constructor(keys: readonly ApiKey[]) {
    this.#keys = keys;
  }

  get size(): number {
    return this.#keys.length;
  }

  /** The label of the presented key, or undefined when it is not one of ours. */
  labelOf(presented: string): string | undefined {
    const digest = createHash('sha256').update(presented).digest();
    let label: string | undefined;
    for (const key of this.#keys) {
      if (timingSafeEqual(key.digest, digest) && label === undefined) label = key.label;
    }
    return label;
  }
}

export function parseApiKeys(text: string): ApiKeyRing {
  const keys: ApiKey[] = [];
  const labels = new Set<string>();
  for (const [index, entry] of text.split(',').entries()) {
    if (entry.trim() === '') continue;
    const equals = entry.indexOf('=');
    const label = equals === -1 ? `key-${index + 1}` : entry.slice(0, equals).trim();
    const key = (equals === -1 ? entry : entry.slice(equals + 1)).trim();
    if (label === '' || key === '') throw new Error(`entry ${index + 1} must be a key or label=key (a key that contains "=" needs a label first: label=key)`);
    if (labels.has(label)) throw new Error(`uses the label "${label}" twice`);
    labels.add(label);
    keys.push({ label, digest: createHash('sha256').update(key).digest() });
  }
  return new ApiKeyRing(keys);
}
