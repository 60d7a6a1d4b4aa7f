import type { IncomingMessage } from 'node:http';

/**
 * If-None-Match and If-Match (RFC 9110 section 13), read once per request.
 * If-None-Match compares weakly (`W/"x"` matches `"x"`), If-Match strongly
 * (a weak tag never matches). Malformed parts are ignored.
 */
export type EntityTags = '*' | readonly string[];

export interface RequestConditions {
  readonly ifNoneMatch?: EntityTags;
  readonly ifMatch?: EntityTags;
}

const NONE: RequestConditions = {};
const ENTITY_TAG = /^(W\/)?("[\x21\x23-\x7e\x80-\xff]*")$/;

function tagsOf(header: string, weak: 'strip' | 'drop'): EntityTags {
  if (header.trim() === '*') return '*';
  const tags: string[] = [];
  for (const part of header.split(',')) {
    const match = ENTITY_TAG.exec(part.trim());
    if (match?.[2] === undefined || (match[1] !== undefined && weak === 'drop')) continue;
    tags.push(match[2]);
  }
  return tags;
}

export function conditionsOf(req: IncomingMessage): RequestConditions {
  const ifNoneMatch = req.headers['if-none-match'];
  const ifMatch = req.headers['if-match'];
  if (ifMatch === undefined) return ifNoneMatch === undefined ? NONE : { ifNoneMatch: tagsOf(ifNoneMatch, 'strip') };
  if (ifNoneMatch === undefined) return { ifMatch: tagsOf(ifMatch, 'drop') };
  return { ifNoneMatch: tagsOf(ifNoneMatch, 'strip'), ifMatch: tagsOf(ifMatch, 'drop') };
}
