import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { ConfigError } from './config-error.js';
import type { SettingName } from './settings.js';

export interface TlsFiles {
  readonly cert: Buffer;
  readonly key: Buffer;
}

function readPem(name: SettingName, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`${name} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'} ${path}`);
  }
}

/** Read as the HTTPS server will read it; OpenSSL's reason names what is wrong, never the key's bytes. */
function pemOf<T>(name: SettingName, what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ConfigError(`${name} must be a PEM ${what} (${(error as Error).message})`);
  }
}

/**
 * TLS_CERT and TLS_KEY: both or neither, each a readable PEM file, the key
 * that of the certificate. Checked here so that a wrong file stops start-up
 * naming its setting; otherwise the server itself would fail to start on it
 * (exit 1, naming OpenSSL's routines), or, for a key of another certificate,
 * start and fail every handshake.
 */
export function tlsSetting(certPath: string | undefined, keyPath: string | undefined): TlsFiles | undefined {
  const certFile = certPath || undefined;
  const keyFile = keyPath || undefined;
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) throw new ConfigError('TLS_CERT and TLS_KEY must be set together');
  const cert = readPem('TLS_CERT', certFile);
  const key = readPem('TLS_KEY', keyFile);
  const certificate = pemOf('TLS_CERT', 'certificate', () => {
    createSecureContext({ cert });
    return new X509Certificate(cert);
  });
  const privateKey = pemOf('TLS_KEY', 'private key', () => {
    createSecureContext({ key });
    return createPrivateKey(key);
  });
  if (!certificate.checkPrivateKey(privateKey)) throw new ConfigError("TLS_KEY must be the private key of TLS_CERT's certificate (it is another key)");
  return { cert, key };
}
