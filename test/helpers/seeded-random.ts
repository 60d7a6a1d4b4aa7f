/**
 * The tests' seeded random stream: the same seed gives the same choices, so a
 * failure replays from the seed a test prints (the fuzzers' FUZZ_SEED, the
 * crash rounds' seed).
 */

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer from min to max, both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One value, chosen in proportion to its weight. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T;
}

/** mulberry32: a tiny, well-mixed 32-bit generator, plenty for choosing test inputs. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[int(0, items.length - 1)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  };
  return {
    next,
    int,
    pick,
    chance: (probability) => next() < probability,
    weighted: (entries) => {
      let roll = next() * entries.reduce((sum, [weight]) => sum + weight, 0);
      for (const [weight, value] of entries) {
        roll -= weight;
        if (roll < 0) return value;
      }
      return pick(entries)[1];
    },
  };
}
