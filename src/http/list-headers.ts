import type { HeaderList } from './reply.js';
import type { Listing } from './route.js';

/**
 * X-Total-Count, and for a paged answer an RFC 8288 Link header with
 * `first`, `last`, `prev` (when page > 1) and `next` (when page < last),
 * where last is max(1, ceil(total / per_page)). Each link is a path-absolute
 * URL: the request's own path and query, with explicit `page` and `per_page`.
 */
export function listHeaders(total: number, listing: Listing, requestUrl: string): HeaderList {
  const count = ['x-total-count', String(total)];
  if (listing.kind === 'counted') return count;
  const { page, perPage } = listing;
  const last = Math.max(1, Math.ceil(total / perPage));
  const question = requestUrl.indexOf('?');
  const path = question === -1 ? requestUrl : requestUrl.slice(0, question);
  const query = new URLSearchParams(question === -1 ? '' : requestUrl.slice(question + 1));
  const link = (target: number, rel: string): string => {
    query.set('page', String(target));
    query.set('per_page', String(perPage));
    return `<${path}?${query.toString()}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(page - 1, 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  return [...count, 'link', links.join(', ')];
}
