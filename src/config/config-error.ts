/** A setting that is wrong: start-up stops with this message (naming the setting, never a secret) and exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
