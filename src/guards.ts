import type { IncomingMessage, ServerResponse } from 'node:http';
import { Buffer } from 'node:buffer';
import type { UserDirectory } from './user-directory.js';
import type { ApiKeyRing } from './api-keys.js';
import type { TokenService } from './tokens.js';
import type { AuthScheme } from './protection-rules.js';
import { sendError } from './reply.js';

/** Who the caller proved to be, and how. */
export interface Identity {
  readonly username: string;
  readonly scheme: Exclude<AuthScheme, 'none'>;
}

/**
 * Checks a request's credentials before its body is read. On failure it has
 * already answered and gives undefined. Bearer and API-key checks are
 * synchronous, Basic may need an scrypt hash (off the event loop), so a guard
 * answers either way.
 */
export type Guard = (req: IncomingMessage, res: ServerResponse) => Identity | undefined | Promise<Identity | undefined>;

const BASIC_PREFIX = /^basic +/i;
const BEARER_PREFIX = /^bearer +/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

// A credential of another scheme counts as no credential: it answers "required".
export function requireBasic(users: UserDirectory): Guard {
  return async (req, res) => {
    const header = req.headers.authorization;
    if (header === undefined || !BASIC_PREFIX.test(header)) {
      sendError(res, 'BASIC_REQUIRED');
      return undefined;
    }
    const encoded = header.replace(BASIC_PREFIX, '').trim();
    const decoded = BASE64.test(encoded) ? Buffer.from(encoded, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon === -1 || !(await users.verify(decoded.slice(0, colon), decoded.slice(colon + 1)))) {
      sendError(res, 'BASIC_INVALID');
      return undefined;
    }
    return { username: decoded.slice(0, colon), scheme: 'basic' };
  };
}

export function requireApiKey(keys: ApiKeyRing): Guard {
  return (req, res) => {
    const presented = req.headers['x-api-key'];
    const label = typeof presented === 'string' ? keys.labelOf(presented) : undefined;
    if (label === undefined) {
      sendError(res, 'API_KEY_INVALID');
      return undefined;
    }
    return { username: label, scheme: 'apikey' };
  };
}

export function requireBearer(tokens: TokenService): Guard {
  return (req, res) => {
    const header = req.headers.authorization;
    const token = header !== undefined && BEARER_PREFIX.test(header) ? header.replace(BEARER_PREFIX, '').trim() : '';
    if (token === '') {
      sendError(res, 'TOKEN_REQUIRED');
      return undefined;
    }
    const username = tokens.verify(token);
    if (username === undefined) {
      sendError(res, 'TOKEN_INVALID');
      return undefined;
    }
    return { username, scheme: 'bearer' };
  };
}
