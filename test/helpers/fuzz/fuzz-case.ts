/**
 * What one fuzzed request is (test/http/catalogue/http-fuzz.test.ts): beside the bytes, what
 * the generator knows about it (the route its target names, the kind of
 * credential, whether its Content-Type is a JSON type, whether Node's own
 * parser must refuse it), so the test's oracle judges the answer from the
 * contract rather than from a second implementation of the service.
 */

export const ROUTE_NAMES = ['/products', '/products/:id', '/produkte', '/produkte/:id', '/login', '/me', '/health'] as const;
export type RouteName = (typeof ROUTE_NAMES)[number];

/** What the target names, as the contract reads it. */
export type Routing =
  /** One of the service's routes; `id` is the `:id` segment exactly as sent. */
  | { readonly kind: 'route'; readonly route: RouteName; readonly id?: string }
  /** No route of the contract: 404. */
  | { readonly kind: 'none' }
  /** Not a path at all (CONNECT's authority form, `*`): 404, or 400 for a request the server cannot place. */
  | { readonly kind: 'not-a-path' }
  /** The contract does not say where this lands (double slashes, broken escapes, absolute-form): general rules only. */
  | { readonly kind: 'unspecified' };

export type AuthorizationKind = 'none' | 'basic-good' | 'basic-bad' | 'bearer-good' | 'bearer-bad' | 'bearer-missing' | 'other';
export type ApiKeyKind = 'none' | 'good' | 'bad';

export interface FuzzCase {
  readonly index: number;
  /** The generator's choices in a few words, for failure messages and the summary. */
  readonly label: string;
  readonly method: string;
  /** Path and query as sent. */
  readonly target: string;
  /** For 'agent' cases: every header sent. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body the server receives (a chunked body already joined), if any. */
  readonly body: Buffer | undefined;
  /** A Content-Length announced without the body that would match it. */
  readonly declaredLength: number | undefined;
  readonly contentType: { readonly value: string | undefined; readonly json: boolean };
  readonly authorization: AuthorizationKind;
  readonly apiKey: ApiKeyKind;
  readonly routing: Routing;
  /** Node's HTTP parser refuses this request itself, with this status. */
  readonly parserRejects: 400 | 431 | undefined;
  /**
   * The head is sound but the chunked framing of the body is not: Node's parser
   * refuses it with 400 as soon as it reaches it, which may be before or after
   * the route has answered without the body.
   */
  readonly brokenBody: boolean;
  /** 'agent': http.request on a keep-alive connection; 'raw': exactly `raw` on a socket of its own. */
  readonly transport: 'agent' | 'raw';
  readonly raw: Buffer | undefined;
}

export interface FuzzCredentials {
  readonly username: string;
  readonly password: string;
  readonly apiKey: string;
  readonly jwtSecret: string;
  /** A token from POST /login. */
  readonly token: string;
}

export interface FuzzPlan {
  readonly seed: number;
  readonly count: number;
  readonly bodyLimit: number;
  readonly credentials: FuzzCredentials;
}

// --- targets ----------------------------------------------------------------------
