/**
 * The command line of the small benches (journal-recovery, journal-throughput,
 * order-streams): `--name N` counts and bare `--flag`s, each checked; an
 * unknown option is refused with the list of known ones. (bench/http/run.ts has
 * its own, larger set in http/options.ts.)
 */

export interface CountOption {
  readonly fallback: number;
  /** The least value allowed. */
  readonly min: number;
  /** How the usage line shows the value: N for a count, S for seconds. */
  readonly unit: 'N' | 'S';
}

export interface ScriptOptions {
  count(name: string): number;
  flag(name: string): boolean;
}

export function readScriptOptions(argv: readonly string[], counts: Readonly<Record<string, CountOption>>, flags: readonly string[]): ScriptOptions {
  const values = new Map<string, string>();
  const given = new Set<string>();
  const known = [...Object.entries(counts).map(([name, { unit }]) => `${name} ${unit}`), ...flags].join(', ');
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (flags.includes(arg)) given.add(arg);
    else if (Object.hasOwn(counts, arg) && argv[index + 1] !== undefined) values.set(arg, argv[++index] as string);
    else throw new Error(`unknown option ${arg} (${known})`);
  }
  return {
    count(name) {
      const option = counts[name];
      if (option === undefined) throw new Error(`${name} is not a count of this bench`);
      const value = Number(values.get(name) ?? option.fallback);
      if (!Number.isInteger(value) || value < option.min) throw new Error(`${name} must be a whole number${option.min > 0 ? ` of at least ${option.min}` : ''}`);
      return value;
    },
    flag: (name) => given.has(name),
  };
}
