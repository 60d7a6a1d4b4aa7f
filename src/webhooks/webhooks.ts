import type { WebhookSettings } from '../config/webhook-settings.js';
import type { Logger } from '../log/logger.js';
import type { StoreClient } from '../store/store-client.js';
import { WebhookHttp, type WebhookResolver } from './webhook-http.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookStats } from './webhook-stats.js';
import { webhookUserAgent } from './user-agent.js';
import { DeliverySigner } from './webhook-signature.js';

export type { WebhookResolver } from './webhook-http.js';

export interface WebhookSenderOptions {
  readonly store: StoreClient;
  readonly log: Logger;
  readonly settings: WebhookSettings;
  /** The sender's clock (ms since the epoch); Date.now by default. */
  readonly now?: () => number;
  /** How host names are resolved; node:dns by default. */
  readonly resolve?: WebhookResolver;
}

/** The sender as the service wires it (service.ts): started on the writer, told of the writes' news, stopped with the service; its counts for /metrics. */
export function createWebhookSender({ store, log, settings, now = Date.now, resolve }: WebhookSenderOptions): { readonly sender: WebhookSender; readonly stats: WebhookStats } {
  const http = new WebhookHttp({ timeoutMs: settings.timeoutMs, connections: settings.concurrency, allowPrivate: settings.allowPrivate, ...(resolve === undefined ? {} : { resolve }) });
  const stats = new WebhookStats();
  const sender = new WebhookSender({ store, log, settings, http, stats, signer: new DeliverySigner(webhookUserAgent()), now, random: Math.random });
  return { sender, stats };
}
