/** A setting that is wrong: start-up stops with this message (naming the setting, never a secret) and exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** What a refused start prints on stderr before exit code 2 (serve.ts); apart from serve.ts so that tests check the very line. */
export function refusalLine(message: string): string {
  // A message quotes the value it refuses, which may hold a line break: escaped, the refusal stays one line.
  return `catalogue: ${message.replace(/\p{Cc}/gu, escapeControl)}\n`;
}

const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeControl(character: string): string {
  return ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
