/**
 * What a scenario hands the load generator: the requests each connection
 * sends in turn, and for every kind of request the status it must get and
 * how its body is judged. Kinds are what latency, statuses and the
 * first-body check are kept by, so a mix can report its by-id p99 alone.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Outgoing {
  /** The request kind, a key of LoadPlan.kinds. */
  readonly kind: string;
  readonly method: Method;
  readonly path: string;
  /** A JSON body (sent with `content-type: application/json`). */
  readonly body?: string;
  /** Headers of this request alone (a customer's token, an Idempotency-Key), on top of the server's credentials. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** autocannon's per-connection context: reset when the steps start over. */
export type StepContext = Record<string, unknown>;

/** Reads what a later step needs out of a response (the id a POST created). */
export type Remember = (status: number, body: string, context: StepContext) => void;

export type Step =
  /** The same request every time: autocannon builds its bytes once. */
  | { readonly fixed: Outgoing; readonly remember?: Remember }
  /**
   * A request made per send (a random id, the id a previous step created).
   * undefined starts the connection's steps over (autocannon counts a reset).
   */
  | { readonly choose: (context: StepContext) => Outgoing | undefined; readonly remember?: Remember };

export interface ResponseSeen {
  readonly status: number;
  readonly body: string;
  readonly contentType: string | undefined;
  /** A response header by its lower-case name (the first, when it came more than once). */
  readonly header: (name: string) => string | undefined;
}

export interface RequestKind {
  /** For tables: `GET by id`, `PUT`... */
  readonly label: string;
  /** Any other status is counted as unexpected. */
  readonly status: number;
  /** Judges the first response of this kind: a problem, or undefined when it is right. */
  readonly check: (response: ResponseSeen, sent: Outgoing) => string | undefined;
}

export interface LoadPlan {
  readonly steps: readonly Step[];
  readonly kinds: Readonly<Record<string, RequestKind>>;
  /** Requests each connection keeps in flight (autocannon's `pipelining`); 1 when absent. */
  readonly pipelining?: number;
}
