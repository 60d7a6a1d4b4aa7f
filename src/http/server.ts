import http from 'node:http';
import https from 'node:https';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceConfig } from '../config/load-config.js';

/** HTTP, or HTTPS only when TLS files are configured. */
export function createServer(config: ServiceConfig, listener: RequestListener): Server {
  return config.tls === undefined ? http.createServer(listener) : https.createServer({ cert: config.tls.cert, key: config.tls.key }, listener);
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

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops accepting connections and resolves once every in-flight request has
 * been answered. Keep-alive connections are closed as soon as they fall idle;
 * whatever is still open after the grace period is cut.
 */
export function closeGracefully(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}
