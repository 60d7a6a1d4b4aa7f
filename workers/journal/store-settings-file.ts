/**
 * The settings a store under DATA_DIR was made with. Replaying its journal
 * with other ones would build another store (count + 1 ids against highest
 * + 1, other deadlines, prices in another currency), so a start with
 * different settings is refused, naming them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { StoreWorkerData } from '../store-start-protocol.js';
import { storeSettingsFile } from './data-dir-layout.js';
import { JournalDamage } from './journal-reader.js';

export type StoreSettings = Pick<StoreWorkerData, 'strict' | 'marketplace' | 'currency' | 'orderPaymentTtlSeconds'>;

const SETTING_NAMES: Readonly<Record<keyof StoreSettings, string>> = {
  strict: 'STRICT',
  marketplace: 'MARKETPLACE',
  currency: 'CURRENCY',
  orderPaymentTtlSeconds: 'ORDER_PAYMENT_TTL',
};

export const storeSettingsOf = ({ strict, marketplace, currency, orderPaymentTtlSeconds }: StoreWorkerData): StoreSettings => ({ strict, marketplace, currency, orderPaymentTtlSeconds });

/** The settings that differ, said for a person ("CURRENCY (the store has "EUR", this start "CHF")"); undefined when none do. */
export function settingsDifference(kept: Partial<StoreSettings>, settings: StoreSettings): string | undefined {
  const differing = (Object.keys(SETTING_NAMES) as (keyof StoreSettings)[]).filter((key) => kept[key] !== settings[key]);
  if (differing.length === 0) return undefined;
  return differing.map((key) => `${SETTING_NAMES[key]} (the store has ${JSON.stringify(kept[key])}, this start ${JSON.stringify(settings[key])})`).join(', ');
}

export class SettingsMismatch extends Error {
  override readonly name = 'SettingsMismatch';
}

/** Writes the settings on a new DATA_DIR; on an existing one, throws SettingsMismatch when they differ. */
export function checkStoreSettings(dataDir: string, options: StoreWorkerData): void {
  const settings = storeSettingsOf(options);
  const path = storeSettingsFile(dataDir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`, { flag: 'wx' });
    return;
  }
  let kept: Partial<StoreSettings>;
  try {
    kept = JSON.parse(text) as Partial<StoreSettings>;
  } catch {
    throw new JournalDamage(`${path} is not JSON`);
  }
  const said = settingsDifference(kept, settings);
  if (said !== undefined) throw new SettingsMismatch(`DATA_DIR ${dataDir} holds a store made with other settings: ${said}; start with the store's settings, or with another DATA_DIR`);
}
