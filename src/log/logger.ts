import pino from 'pino';
import type { LogLevel } from './log-levels.js';

export { LOG_LEVELS, type LogLevel } from './log-levels.js';

/**
 * Structured logs with pino: one JSON object a line on stderr,
 * `{"level","time","msg",...fields}`. The service's own code logs through
 * this small interface, so what it may log is typed; pino adds the
 * redaction that keeps a credential out even if one is ever passed in a
 * field (every level, every field path below).
 */
type LogValue = string | number | boolean | undefined;
type LogFields = Readonly<Record<string, LogValue>>;
type LogMethod = (message: string, fields?: LogFields) => void;

export interface Logger {
  readonly fatal: LogMethod;
  readonly error: LogMethod;
  readonly warn: LogMethod;
  readonly info: LogMethod;
  readonly debug: LogMethod;
  /** Whether a line at this level would be written: the access log asks before building one. */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
}

/**
 * Field names that may hold a secret, wherever they appear: request headers,
 * passwords, tokens, card data. Listed once; pino censors them when it
 * serialises, so a mistake at a call site cannot leak them.
 */
const SECRET_FIELDS = ['authorization', 'cookie', '"set-cookie"', '"x-api-key"', 'api_key', 'password', 'passwordHash', 'token', 'refreshToken', 'secret', 'card', 'cvc'];
export const REDACTED_PATHS: readonly string[] = SECRET_FIELDS.flatMap((field) => {
  const key = field.startsWith('"') ? `[${field}]` : `.${field}`;
  return [key.startsWith('.') ? field : key, `*${key}`, `*.*${key}`];
});

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const log = pino(
    {
      level,
      base: null,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    },
    { write },
  );
  const method =
    (name: Exclude<LogLevel, 'silent'>): LogMethod =>
    (message, fields) => {
      log[name](fields ?? {}, message);
    };
  return {
    fatal: method('fatal'),
    error: method('error'),
    warn: method('warn'),
    info: method('info'),
    debug: method('debug'),
    enabled: (name) => log.isLevelEnabled(name),
  };
}
