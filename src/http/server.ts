import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ServiceConfig } from '../config/load-config.js';
import type { DrainState } from './drain.js';

/**
 * HTTP, or HTTPS only when TLS files are configured, with timeouts chosen
 * for a JSON API rather than Node's defaults (5 minutes for a request): a
 * slow client is cut when its headers or its whole request take too long.
 */
export function createServer(config: ServiceConfig, listener: RequestListener): Server {
  const limits = config.connections;
  const options: http.ServerOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often Node checks those timeouts (default 30 s, which would let a
    // 10 s headers timeout run to 40 s).
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
  };
  const server = config.tls === undefined ? http.createServer(options, listener) : https.createServer({ ...options, cert: config.tls.cert, key: config.tls.key }, listener);
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  // Node hands CONNECT to this event and, without a listener, closes the
  // socket unanswered. It is a method like any other here: the router
  // answers 404 or 405 with Allow, and the connection closes after it.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const res = new http.ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.on('finish', () => socket.end());
    listener(req, res);
  });
  return server;
}

/** Listens and resolves with the URL the service answers on, real port included. */
export function listen(server: Server, config: ServiceConfig): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      const { address, port } = server.address() as AddressInfo;
      const host = address.includes(':') ? `[${address}]` : address;
      resolve(`${config.tls === undefined ? 'http' : 'https'}://${host}:${port}${config.basePath}`);
    });
  });
}

/**
 * Stops accepting connections and resolves once every in-flight request has
 * been answered. From now on every response says `Connection: close`, so a
 * keep-alive client learns the connection ends with the answer instead of
 * sending its next request into a socket being closed; idle connections are
 * closed at once. Whatever is still open after `graceMs` (a client that sends
 * half a request and stops) is cut.
 */
export function closeGracefully(server: Server, drain: DrainState, graceMs: number): Promise<void> {
  drain.draining = true;
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}
