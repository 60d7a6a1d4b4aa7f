/**
 * Start-up refusals without a process. `node dist/main.js` refuses a setting
 * at one of three steps that need nothing but the settings: reading the flags
 * over the variables (settingLookup), loading them (loadConfig), and checking
 * the protection settings against the real route table (createApp, which
 * serve.ts reaches through startService). `refusalOf` takes the same three
 * steps and returns the line serve.ts would print (refusalLine) before exit
 * code 2, so a table of bad settings costs microseconds a case instead of a
 * process. What needs a process stays one (test/start-up-refusals.test.ts):
 * the exit code itself, a DATA_DIR in use, a store that refuses its journal,
 * a port in use.
 */
import type { ExecutionContext } from 'ava';
import { Registry } from 'prom-client';
import { createApp } from '../../../src/app.js';
import { ConfigError, refusalLine } from '../../../src/config/config-error.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { settingLookup } from '../../../src/config/settings.js';
import { createLogger } from '../../../src/log/logger.js';
import type { StoreClient } from '../../../src/store/store-client.js';

export interface StartUpSettings {
  readonly env?: Readonly<Record<string, string>>;
  /** As the binary is given them; `--port 0` when absent, as runToExit gives it. */
  readonly args?: readonly string[];
}

/** Building the routes sends nothing to the store. */
const NO_STORE: StoreClient = { send: () => Promise.reject(new Error('no store while the routes are built')) };

/**
 * The stderr of a start refused with these settings, or undefined when they
 * pass every check that needs no process. The routes are those of a service
 * without a cluster (no DATABASE_URL store behind it), with /metrics when
 * METRICS is on, as startService builds them.
 */
export function refusalOf(settings: StartUpSettings): string | undefined {
  try {
    const config = loadConfig(settingLookup({ LOG_LEVEL: 'warn', ...settings.env }, settings.args ?? ['--port', '0']));
    const metrics = config.metrics ? { metrics: { registry: new Registry(), answered: () => undefined } } : {};
    createApp({ config, store: NO_STORE, log: createLogger('silent'), drain: { draining: false }, ...metrics });
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return refusalLine(error.message);
    throw error;
  }
}

/** The settings whose values are secret, and how to find the secrets in a value. */
const SECRET_SETTINGS: Readonly<Record<string, (value: string) => string[]>> = {
  AUTH_USERS: (value) => entries(value).map((entry) => entry.slice(entry.indexOf(':') + 1)),
  API_KEYS: (value) => entries(value).map((entry) => entry.slice(entry.indexOf('=') + 1)),
  JWT_SECRET: (value) => [value],
  CLUSTER_SECRET: (value) => [value],
  DATABASE_URL: (value) => {
    try {
      const url = new URL(value);
      return [decodeURIComponent(url.password), ...[...url.searchParams].filter(([name]) => /password/i.test(name)).map(([, secret]) => secret)];
    } catch {
      return [];
    }
  },
};

const entries = (text: string): string[] => text.split(',').filter((entry) => entry !== '');

/** The value of `--kebab-name value` or `--kebab-name=value` in args, read apart from the code under test. */
function flagValues(args: readonly string[], name: string): string[] {
  const flag = `--${name.toLowerCase().replaceAll('_', '-')}`;
  return args.flatMap((arg, index) => {
    if (arg === flag) return [args[index + 1] ?? ''];
    return arg.startsWith(`${flag}=`) ? [arg.slice(flag.length + 1)] : [];
  });
}

/**
 * Every password, key and secret in a set of settings, variables and flags.
 * Only those of at least 8 characters: the cases give long, distinctive
 * ones, so finding one in a line is never a coincidence.
 */
export function secretsIn(settings: StartUpSettings): string[] {
  return Object.entries(SECRET_SETTINGS)
    .flatMap(([name, secretsOf]) => [settings.env?.[name], ...flagValues(settings.args ?? [], name)].flatMap((value) => (value === undefined ? [] : secretsOf(value))))
    .filter((secret) => secret.length >= 8);
}

/** A refusal as the README's Settings section promises it: one line, naming the setting, quoting no secret. */
export function assertRefusalLine(t: ExecutionContext, stderr: string | undefined, names: RegExp, secrets: readonly string[]): void {
  if (stderr === undefined) {
    t.fail('the settings were not refused');
    return;
  }
  t.regex(stderr, /^catalogue: [^\n]+\n$/, 'exactly one line');
  t.regex(stderr, names);
  for (const secret of secrets) t.false(stderr.includes(secret), `the line quotes the secret "${secret}": ${stderr}`);
}

/** Refused in process: the line the binary would print, checked as assertRefusalLine does. */
export function assertRefused(t: ExecutionContext, settings: StartUpSettings, names: RegExp, otherSecrets: readonly string[] = []): void {
  assertRefusalLine(t, refusalOf(settings), names, [...secretsIn(settings), ...otherSecrets]);
}
