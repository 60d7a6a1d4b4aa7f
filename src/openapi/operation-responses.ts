import type { HttpErrorSpec, HttpErrorTable } from '../http/http-errors.js';
import type { AnswerDoc, JsonSchema } from '../http/route-doc.js';

/**
 * An operation's responses, from its success answers and the error codes it
 * can answer: each code is looked up in the service's merged error table, so
 * the status, the body (JSON or plain text, with `code` or not) and the
 * fixed headers are the ones the response writer sends. Codes of one status
 * share a response; where a success and an error share one (the seed's
 * parse-error 200), its schema is either.
 */

type OpenApiObject = Record<string, unknown>;

export const ERROR_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'], additionalProperties: false },
  ErrorWithCode: {
    type: 'object',
    description: "A body-parse error (`code` 400, whatever the status) or a payment's decline (`code` names the reason)",
    properties: { error: { type: 'string' }, code: { anyOf: [{ const: 400 }, { type: 'string' }] } },
    required: ['error', 'code'],
    additionalProperties: false,
  },
};

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  304: 'Not Modified: the ETag still matches If-None-Match',
};

/** What a success answer carries besides its body. */
export interface AnswerHeaders {
  readonly etag: boolean;
  readonly listing: boolean;
  readonly replayable: boolean;
}

const stringHeader = (description: string): OpenApiObject => ({ description, schema: { type: 'string' } });

function successHeaders({ etag, listing, replayable }: AnswerHeaders): OpenApiObject | undefined {
  const headers: OpenApiObject = {};
  if (etag) headers.ETag = stringHeader('The version of what was answered, for If-None-Match and If-Match');
  if (listing) {
    headers['X-Total-Count'] = { description: 'All matches (on searches and paged lists)', schema: { type: 'integer', minimum: 0 } };
    headers.Link = stringHeader('RFC 8288 links first, last, prev, next (on paged answers)');
  }
  if (replayable) headers['Idempotent-Replayed'] = stringHeader('`true` when this is the first answer to the same Idempotency-Key again');
  return Object.keys(headers).length === 0 ? undefined : headers;
}

interface StatusParts {
  readonly descriptions: string[];
  readonly json: JsonSchema[];
  readonly jsonExamples: OpenApiObject;
  readonly text: Map<string, OpenApiObject>;
  readonly headers: OpenApiObject;
}

const errorSchemaOf = (spec: HttpErrorSpec): JsonSchema => ({ $ref: `#/components/schemas/${spec.bodyCode === undefined ? 'Error' : 'ErrorWithCode'}` });

function errorHeaders(spec: HttpErrorSpec, into: OpenApiObject): void {
  const fixed = spec.headers ?? [];
  for (let index = 0; index < fixed.length; index += 2) {
    const name = fixed[index] as string;
    into[name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())] = stringHeader(`\`${fixed[index + 1] ?? ''}\``);
  }
  // Throttles name their own wait.
  if (spec.status === 429) into['Retry-After'] = stringHeader('Seconds to wait before trying again');
}

/** Builds `responses` for one operation. Throws when a code is in no table: a route documented with a code the service cannot answer. */
export function responsesOf(answers: Readonly<Partial<Record<number, AnswerDoc>>>, codes: readonly string[], table: HttpErrorTable, headers: AnswerHeaders, notModified: boolean): OpenApiObject {
  const byStatus = new Map<number, StatusParts>();
  const partsOf = (status: number): StatusParts => {
    let parts = byStatus.get(status);
    if (parts === undefined) {
      parts = { descriptions: [], json: [], jsonExamples: {}, text: new Map(), headers: {} };
      byStatus.set(status, parts);
    }
    return parts;
  };

  for (const [statusText, answer] of Object.entries(answers)) {
    if (answer === undefined) continue;
    const status = Number(statusText);
    const parts = partsOf(status);
    parts.descriptions.push(STATUS_TEXT[status] ?? 'Success');
    Object.assign(parts.headers, successHeaders(headers));
    if (answer.kind === 'json') parts.json.push(answer.schema);
    if (answer.kind === 'text') for (const type of answer.contentTypes) parts.text.set(type, { schema: { type: 'string' } });
  }
  if (notModified) {
    const parts = partsOf(304);
    parts.descriptions.push(STATUS_TEXT[304] as string);
    parts.headers.ETag = stringHeader('The current version');
  }

  for (const code of new Set(codes)) {
    const spec = table[code];
    if (spec === undefined) throw new Error(`the API reference names error ${code}, which no error table declares`);
    const parts = partsOf(spec.status);
    parts.descriptions.push(`\`${code}\`: ${spec.message}`);
    errorHeaders(spec, parts.headers);
    if (spec.format === 'text') {
      const text = parts.text.get('text/plain') ?? { schema: { type: 'string' }, examples: {} };
      (text.examples as OpenApiObject)[code] = { value: spec.message };
      parts.text.set('text/plain', text);
    } else {
      const schema = errorSchemaOf(spec);
      if (!parts.json.some((known) => known.$ref === schema.$ref)) parts.json.push(schema);
      parts.jsonExamples[code] = { value: spec.bodyCode === undefined ? { error: spec.message } : { error: spec.message, code: spec.bodyCode } };
    }
  }

  const responses: OpenApiObject = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const parts = byStatus.get(status) as StatusParts;
    const content: OpenApiObject = {};
    if (parts.json.length > 0) {
      const schema = parts.json.length === 1 ? parts.json[0] : { anyOf: parts.json };
      content['application/json'] = Object.keys(parts.jsonExamples).length === 0 ? { schema } : { schema, examples: parts.jsonExamples };
    }
    for (const [type, media] of parts.text) content[type] = media;
    responses[String(status)] = {
      description: parts.descriptions.join('; '),
      ...(Object.keys(parts.headers).length === 0 ? {} : { headers: parts.headers }),
      ...(Object.keys(content).length === 0 ? {} : { content }),
    };
  }
  return responses;
}
