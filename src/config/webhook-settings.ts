import { ConfigError } from './config-error.js';
import type { SettingLookup } from './settings.js';
import { booleanSetting, integerSetting } from './setting-values.js';

/** The webhook sender's settings (contract section 8), checked once at start-up. */
export interface WebhookSettings {
  /** An attempt is a failure unless a 2xx status arrives within this; also the connect, headers and body time-outs. */
  readonly timeoutMs: number;
  /** After each failed attempt, in turn, the delay before the next (each with up to 10% jitter); after the last, the delivery fails. */
  readonly retryScheduleMs: readonly number[];
  /** Deliveries in flight to one endpoint at most (and connections to one origin). */
  readonly concurrency: number;
  /** Loopback and private addresses are not refused (tests, a receiver on the shop's own network). */
  readonly allowPrivate: boolean;
  /** Pending deliveries per endpoint at most: past it, the oldest pending fails. */
  readonly pendingMax: number;
}

const DEFAULT_SCHEDULE = '5,300,1800,7200,18000,36000,36000';
const WEEK_SECONDS = 7 * 24 * 3600;
const MAX_STEPS = 50;

function scheduleSetting(raw: string | undefined): number[] {
  const text = raw === undefined || raw.trim() === '' ? DEFAULT_SCHEDULE : raw;
  const steps = text.split(',').map((step) => step.trim());
  const seconds = steps.map((step) => (/^[0-9]{1,7}$/.test(step) ? Number(step) : Number.NaN));
  if (steps.length > MAX_STEPS || !seconds.every((value) => value >= 1 && value <= WEEK_SECONDS)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be 1 to ${MAX_STEPS} comma-separated whole numbers of seconds, each from 1 to ${WEEK_SECONDS}, such as ${DEFAULT_SCHEDULE} (got "${text}")`);
  }
  return seconds.map((value) => value * 1000);
}

export function webhookSettings(setting: SettingLookup): WebhookSettings {
  return {
    timeoutMs: integerSetting('WEBHOOK_TIMEOUT', setting('WEBHOOK_TIMEOUT'), 10, 1, 300) * 1000,
    retryScheduleMs: scheduleSetting(setting('WEBHOOK_RETRY_SCHEDULE')),
    concurrency: integerSetting('WEBHOOK_CONCURRENCY', setting('WEBHOOK_CONCURRENCY'), 4, 1, 64),
    allowPrivate: booleanSetting('WEBHOOK_ALLOW_PRIVATE', setting('WEBHOOK_ALLOW_PRIVATE')),
    pendingMax: integerSetting('WEBHOOK_PENDING_MAX', setting('WEBHOOK_PENDING_MAX'), 100_000, 1, 10_000_000),
  };
}
