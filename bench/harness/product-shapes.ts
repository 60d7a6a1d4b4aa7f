/**
 * The right shape of a products response (CONTRACT.md section 2), checked on
 * the first response of every kind in every scenario: a server that answers
 * fast but wrong must not make it into the table as fast.
 */
import type { Outgoing, RequestKind, ResponseSeen } from './load-plan.js';

type Check = RequestKind['check'];

const PRODUCT_KEYS = 'id,name,description,price';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A stored product: the four keys in the contract's order, each of the right type. */
function productProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'a product is not an object';
  if (Object.keys(value).join(',') !== PRODUCT_KEYS) return `product keys are ${Object.keys(value).join(',')}, not ${PRODUCT_KEYS}`;
  const { id, name, description, price } = value;
  if (!Number.isSafeInteger(id) || (id as number) < 1) return `product id ${JSON.stringify(id)} is not a positive integer`;
  if (typeof name !== 'string' || name === '') return 'product name is not a non-empty string';
  if (typeof description !== 'string' || description === '') return 'product description is not a non-empty string';
  if (typeof price !== 'number' || !Number.isFinite(price) || price === 0) return 'product price is not a non-zero number';
  return undefined;
}

/** Parses a `{"data": ...}` JSON body, or says why it is not one. */
export function dataOf(response: ResponseSeen): { data: unknown } | string {
  if (!/^application\/json/i.test(response.contentType ?? '')) return `content-type is ${JSON.stringify(response.contentType)}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    return `body is not JSON: ${JSON.stringify(response.body.slice(0, 80))}`;
  }
  if (!isRecord(parsed) || !('data' in parsed)) return `body has no "data": ${response.body.slice(0, 80)}`;
  return { data: parsed.data };
}

function idInPath(sent: Outgoing): number {
  return Number(sent.path.slice(sent.path.lastIndexOf('/') + 1));
}

function sentFieldsProblem(product: Record<string, unknown>, sent: Outgoing): string | undefined {
  const fields = JSON.parse(sent.body ?? '{}') as Record<string, unknown>;
  for (const key of ['name', 'description', 'price']) {
    if (product[key] !== fields[key]) return `stored ${key} ${JSON.stringify(product[key])} is not the one sent, ${JSON.stringify(fields[key])}`;
  }
  return undefined;
}

/** `{"data": product}`: the id in the path (GET, PUT) or any new id (POST); fields as sent when a body was sent. */
export function expectProduct(): Check {
  return (response, sent) => {
    const parsed = dataOf(response);
    if (typeof parsed === 'string') return parsed;
    const problem = productProblem(parsed.data);
    if (problem !== undefined) return problem;
    const product = parsed.data as Record<string, unknown>;
    if (sent.method !== 'POST' && product.id !== idInPath(sent)) return `asked for id ${idInPath(sent)}, got ${String(product.id)}`;
    return sent.body === undefined ? undefined : sentFieldsProblem(product, sent);
  };
}

/** `{"data": [...]}` with exactly `size` products, ids 1..size in collection order. */
export function expectList(size: number): Check {
  return (response) => {
    const parsed = dataOf(response);
    if (typeof parsed === 'string') return parsed;
    if (!Array.isArray(parsed.data)) return '"data" is not an array';
    if (parsed.data.length !== size) return `list has ${parsed.data.length} products, expected ${size}`;
    for (let index = 0; index < parsed.data.length; index++) {
      const item: unknown = parsed.data[index];
      const problem = productProblem(item);
      if (problem !== undefined) return `item ${index}: ${problem}`;
      if ((item as { id: number }).id !== index + 1) return `item ${index} has id ${(item as { id: number }).id}, expected ${index + 1}`;
    }
    return undefined;
  };
}

/** 204: nothing at all in the body. */
export function expectEmpty(): Check {
  return (response) => (response.body === '' ? undefined : `expected an empty body, got ${JSON.stringify(response.body.slice(0, 80))}`);
}
