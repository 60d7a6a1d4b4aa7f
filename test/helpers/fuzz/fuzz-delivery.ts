/** The two ways the fuzzer sends a case: http.request on an agent's keep-alive connections, or raw bytes on a socket of its own. */
import { Buffer } from 'node:buffer';
import http from 'node:http';
import net from 'node:net';
import type { FuzzCase } from './fuzz-case.js';

export type Delivery =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string; readonly complete: boolean }
  /** The connection ended (or failed) before a complete response head arrived. */
  | { readonly kind: 'no-response'; readonly detail: string }
  | { readonly kind: 'timeout' };

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * http.request on the agent's keep-alive connections. `timeoutMs` is a
 * ceiling, not a wait: a response settles at once; only a request the
 * service never answers meets it, and is reported as a hang.
 */
export function sendWithAgent(agent: http.Agent, port: number, fuzzCase: FuzzCase, timeoutMs: number): Promise<Delivery> {
  return new Promise((resolve) => {
    let settled = false;
    const headers = fuzzCase.body === undefined ? fuzzCase.headers : { ...fuzzCase.headers, 'content-length': String(fuzzCase.body.length) };
    const req = http.request({ agent, host: '127.0.0.1', port, method: fuzzCase.method, path: fuzzCase.target, headers });
    const settle = (delivery: Delivery): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(delivery);
    };
    const timer = setTimeout(() => {
      settle({ kind: 'timeout' });
      req.destroy();
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      const done = (): void => settle({ kind: 'response', status: res.statusCode ?? 0, headers: flatHeaders(res.headers), body: Buffer.concat(chunks).toString('utf8'), complete: res.complete });
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    req.on('error', (error) => settle({ kind: 'no-response', detail: error.message }));
    if (fuzzCase.body === undefined) req.end();
    else req.end(fuzzCase.body);
  });
}

/**
 * The bytes on a socket of their own; reads one response. It is complete when
 * its Content-Length is in, at once for HEAD, 204 and 304, and otherwise when
 * the server closes. A 1xx head in front of it is skipped. `timeoutMs` is a
 * ceiling, as for sendWithAgent.
 */
export function sendRaw(port: number, bytes: Buffer, method: string, timeoutMs: number): Promise<Delivery> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (delivery: Delivery): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(delivery);
    };
    const timer = setTimeout(() => settle({ kind: 'timeout' }), timeoutMs);
    const parse = (ended: boolean): void => {
      let text = received.toString('latin1');
      let headEnd = text.indexOf('\r\n\r\n');
      while (headEnd !== -1 && /^HTTP\/1\.[01] 1\d\d /.test(text)) {
        text = text.slice(headEnd + 4);
        headEnd = text.indexOf('\r\n\r\n');
      }
      if (headEnd === -1) {
        if (ended) settle({ kind: 'no-response', detail: received.length === 0 ? 'closed without a byte' : `closed mid-head: ${JSON.stringify(text.slice(0, 80))}` });
        return;
      }
      const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(statusLine.split(' ')[1]);
      const bodyBytes = Buffer.from(text.slice(headEnd + 4), 'latin1');
      const declared = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
      const bodiless = method === 'HEAD' || status === 204 || status === 304;
      const complete = bodiless || (declared !== undefined ? bodyBytes.length >= declared : ended);
      if (complete || ended) {
        const body = bodiless ? '' : bodyBytes.subarray(0, declared ?? bodyBytes.length).toString('utf8');
        settle({ kind: 'response', status, headers, body, complete });
      }
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      parse(false);
    });
    socket.on('end', () => parse(true));
    socket.on('close', () => parse(true));
    socket.on('error', () => parse(true));
    socket.write(bytes);
  });
}
