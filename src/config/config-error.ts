/** A setting that is wrong: start-up stops with this message (naming the setting, never a secret) and exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** What a refused start prints on stderr before exit code 2 (serve.ts); apart from serve.ts so that tests check the very line. */
export function refusalLine(message: string): string {
  return `catalogue: ${message}\n`;
}
