/**
 * A small structured logger: one JSON object a line on stderr. It never sees
 * a request's headers or body, so no credential can reach a log line through it.
 */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;
type LogMethod = (message: string, fields?: LogFields) => void;

export interface Logger {
  readonly fatal: LogMethod;
  readonly error: LogMethod;
  readonly warn: LogMethod;
  readonly info: LogMethod;
  readonly debug: LogMethod;
}

const SEVERITY: Readonly<Record<LogLevel, number>> = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4, silent: -1 };

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const method =
    (name: Exclude<LogLevel, 'silent'>): LogMethod =>
    (message, fields) => {
      if (SEVERITY[name] > SEVERITY[level]) return;
      write(`${JSON.stringify({ time: new Date().toISOString(), level: name, msg: message, ...fields })}\n`);
    };
  return { fatal: method('fatal'), error: method('error'), warn: method('warn'), info: method('info'), debug: method('debug') };
}
