import { isDeepStrictEqual } from 'node:util';

/**
 * Schemas that carry a `title` (a product, an order...) are shown once under
 * components.schemas and referred to by `$ref` everywhere they occur, so a
 * client generator names their types. Two different schemas under one title
 * are a mistake in the domains' schema files, caught at start-up.
 */
export function hoistNamedSchemas<T>(tree: T): { readonly value: T; readonly named: Record<string, unknown> } {
  const named: Record<string, unknown> = {};
  // The routes share schema objects (one product schema in a dozen answers): each is walked, and
  // compared with the schema of its title, once. Walking them again cost most of a
  // marketplace start's document (~30 ms).
  const done = new Map<object, unknown>();
  const visit = (node: unknown): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    const known = done.get(node);
    if (known !== undefined) return known;
    const result = hoist(node);
    done.set(node, result);
    return result;
  };
  const hoist = (node: object): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    const copy: Record<string, unknown> = {};
    // `examples` hold values, not schemas: left as they are.
    for (const [key, value] of Object.entries(node)) copy[key] = key === 'examples' || key === 'example' ? value : visit(value);
    const title = copy.title;
    if (typeof title !== 'string' || !('type' in copy || 'anyOf' in copy)) return copy;
    const earlier = named[title];
    if (earlier !== undefined && !isDeepStrictEqual(earlier, copy)) throw new Error(`two different schemas are named ${title}`);
    named[title] = copy;
    return { $ref: `#/components/schemas/${title}` };
  };
  return { value: visit(tree) as T, named };
}
