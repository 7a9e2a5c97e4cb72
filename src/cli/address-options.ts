import { InvalidArgumentError } from 'commander';
import { splitHostPort } from '../config/index.js';
import { ConfigError } from '../errors.js';

/** Commander parser for --port: a whole number from 0 to 65535. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError('must be a port number from 0 to 65535');
  return port;
}

/** Commander parser for --host: a host, host:port or base URL, kept as given once its port (if any) is valid. */
export function parseHost(value: string): string {
  try {
    splitHostPort(value);
  } catch (error) {
    if (error instanceof ConfigError) throw new InvalidArgumentError('expected a host, host:port or base URL');
    throw error;
  }
  return value;
}
