import { ConfigError } from './config-error.js';
import type { SettingName } from './settings.js';

/** The two kinds of value most settings are: read once at start-up, a bad one stops it with a message naming the setting. */

export function integerSetting(name: SettingName, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = /^[0-9]+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!(value >= min && value <= max)) throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  return value;
}

export function booleanSetting(name: SettingName, raw: string | undefined): boolean {
  const value = (raw ?? '').trim().toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['', '0', 'false', 'off', 'no'].includes(value)) return false;
  throw new ConfigError(`${name} must be 1 (on) or 0 (off) (got "${raw}")`);
}
