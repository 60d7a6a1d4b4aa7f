/**
 * Errors are declared in tables: a stable code, the HTTP status, the message
 * and, for the protection schemes, plain text instead of JSON (the seed
 * answers auth failures in plain text). Each layer and domain declares its own
 * table; the composition root merges them once (a code declared twice stops
 * start-up). Code names a code; it never writes a status number or an error
 * message of its own. Tests assert on status and on the message's gist, so
 * wording can be improved in the tables.
 */
export interface HttpErrorSpec {
  readonly status: number;
  readonly message: string;
  /** Plain text instead of `{"error": ...}`. */
  readonly format?: 'text';
  /** Headers every answer with this error carries, as a flat list: name, value, ... */
  readonly headers?: readonly string[];
  /** The body also says `"code": ...`: 400 for the seed's body-parse error, a reason such as `card_declined` for a payment's 402. */
  readonly bodyCode?: 400 | string;
}

export type HttpErrorTable = Readonly<Record<string, HttpErrorSpec>>;

/** Seconds a client is asked to wait after STORE_BUSY (the Retry-After header). */
export const STORE_BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * The transport's own errors. The body-parse error's status is the seed's
 * quirk (Node's default, 200) unless strict mode asks for 400, so the table
 * is made for one setting.
 */
export function transportErrors(parseErrorStatus: 200 | 400) {
  return {
    ROUTE_NOT_FOUND: { status: 404, message: 'Route not found' },
    METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
    // The rest of the body is never read: the connection closes after the
    // answer rather than drain what may be an endless upload.
    BODY_TOO_LARGE: { status: 413, message: 'Request body is too large', headers: ['connection', 'close'] },
    UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
    BODY_NOT_JSON: { status: parseErrorStatus, message: 'Request body is not valid JSON', bodyCode: 400 },
    IDEMPOTENCY_KEY_MISSING: { status: 400, message: 'The Idempotency-Key header is required: a unique key of 1 to 255 characters per request' },
    IDEMPOTENCY_KEY_INVALID: { status: 400, message: 'The Idempotency-Key header must be 1 to 255 characters' },
    STORE_BUSY: { status: 503, message: 'The store is busy; retry shortly', headers: ['retry-after', String(STORE_BUSY_RETRY_AFTER_SECONDS)] },
    INTERNAL: { status: 500, message: 'Internal server error' },
    // If-Match named another version than the current one: nothing was changed.
    PRECONDITION_FAILED: { status: 412, message: 'The resource has changed since the version named in If-Match' },
  } as const satisfies HttpErrorTable;
}

export type TransportErrorCode = keyof ReturnType<typeof transportErrors>;

/** One table from many; a code declared by two tables is a programming error caught at start-up. */
export function mergeErrorTables(tables: readonly HttpErrorTable[]): HttpErrorTable {
  const merged: Record<string, HttpErrorSpec> = Object.create(null) as Record<string, HttpErrorSpec>;
  for (const table of tables) {
    for (const [code, spec] of Object.entries(table)) {
      if (code in merged) throw new Error(`error code ${code} is declared twice`);
      merged[code] = spec;
    }
  }
  return merged;
}
