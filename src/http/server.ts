import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import net from 'node:net';
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
  const server = config.tls === undefined ? http.createServer(options, listener) : https.createServer({ cert: config.tls.cert, key: config.tls.key, ...options }, listener);
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
 * How long a connection idle at the start of a stop may still bring its next
 * request. A client in a loop sends it within milliseconds of the last
 * answer, gets an answer that says `Connection: close`, and is never reset;
 * a connection idle for longer is idle for real, and is closed.
 */
const DRAIN_LINGER_MS = 250;

/**
 * Stops accepting connections and resolves once every open connection has
 * ended. From now on every response says `Connection: close`, so each
 * keep-alive connection ends with its next answer; those still idle after
 * DRAIN_LINGER_MS are closed. Whatever is still open after `graceMs` (a
 * client that sent half a request and stopped) is cut.
 *
 * net.Server's close, not http.Server's: since Node 19 the latter closes
 * idle keep-alive connections at the very instant of the stop, which races
 * the request a busy client is sending on one: a reset it cannot tell from a
 * lost POST.
 */
export function closeGracefully(server: Server, drain: DrainState, graceMs: number): Promise<void> {
  drain.draining = true;
  return new Promise((resolve) => {
    const linger = setTimeout(() => server.closeIdleConnections(), Math.min(DRAIN_LINGER_MS, graceMs));
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    net.Server.prototype.close.call(server, () => {
      clearTimeout(linger);
      clearTimeout(deadline);
      resolve();
    });
  });
}
