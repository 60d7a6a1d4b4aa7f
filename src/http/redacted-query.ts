/**
 * A request's query string for a log line, with the values of parameters
 * that may hold a credential replaced by `[redacted]`: `api_key` (an API
 * key sent in the URL, contract section 5) and any parameter whose name
 * speaks of a key, token, secret, password, signature, session or card,
 * since a client may put one where the service does not read it (a refresh
 * token in a GET's query). Names are compared as a query parser reads them
 * (percent-decoded, `+` as a space, case and `-`/`_` aside), so
 * `api%5Fkey=...`, which the API key reader takes as `api_key`, is masked
 * too. Everything else is left as the client sent it.
 */
const REDACTED = '[redacted]';
const CREDENTIAL_WORDS = /key|token|secret|passw|signature|session|auth|cookie|card|cvc/;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    // Malformed escapes: the parser keeps such a name as it came.
    return name;
  }
}

/** Whether a query parameter's name says it may carry a credential. */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_WORDS.test(decodedName(name).toLowerCase().replace(/[-_ ]/g, ''));
}

/** The query of `url` (without the `?`) with credential-like parameters' values redacted; undefined when the URL has none. */
export function redactedQuery(url: string): string | undefined {
  const question = url.indexOf('?');
  if (question === -1 || question === url.length - 1) return undefined;
  return url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return isCredentialName(name) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}
