/**
 * The levels LOG_LEVEL may name. Apart from logger.ts so that reading the
 * settings does not load pino: the store thread is started before the rest
 * of the front is loaded (serve.ts), and that start needs the settings.
 */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
