import type { AddressInfo, Server } from 'node:net';
import type { ParseArgsConfig } from 'node:util';
import { usageError } from '../errors/cli-error.js';
import { compactionFlagOptions, helpFlagOptions, valueFlags } from '../parse-flags.js';
import { parseDecimalInteger } from '../serve/decimal-integer.js';
import { parseByteSize } from '../serve/parse-byte-size.js';
import { serverDefaults } from '../serve/server-defaults.js';
import { type StoreLocation, storeLocationOf } from '../serve/session-store.js';

/** The flags of every command that runs a server (`serve`, `proxy`). */
export const serverFlagOptions = {
  ...helpFlagOptions,
  ...compactionFlagOptions,
  port: { type: 'string', short: 'p' },
  ...valueFlags('host', 'max-body', 'max-concurrent', 'max-queue', 'store', 'compaction-threads'),
} as const satisfies ParseArgsConfig['options'];

/** The values of {@link serverFlagOptions} as parsed. */
export type ServerFlagValues = {
  [Name in 'port' | 'host' | 'max-body' | 'max-concurrent' | 'max-queue' | 'store' | 'compaction-threads']?:
    | string
    | undefined;
};

/** What the flags of every server command ask for. */
export interface ServerFlags {
  port: number;
  host: string;
  maxBodyBytes: number;
  maxConcurrent: number;
  maxQueue: number;
  storeLocation: StoreLocation;
  /** `--compaction-threads`: threads that compact off the event loop (0: none); none given, the server's default. */
  compactionThreads?: number;
}

/**
 * Reads the flags of every server command, with the command's own default port and body size; the host is
 * loopback unless `--host` says otherwise. Throws a usage error for a value out of range.
 */
export function readServerFlags(
  values: ServerFlagValues,
  defaults: { port: number; maxBodyBytes: number },
  directory: string,
): ServerFlags {
  return {
    port: portFlag(values.port, defaults.port),
    host: values.host ?? '127.0.0.1',
    maxBodyBytes:
      values['max-body'] === undefined
        ? defaults.maxBodyBytes
        : parseByteSize(values['max-body'], '--max-body'),
    maxConcurrent: integerFlag(values['max-concurrent'], '--max-concurrent', serverDefaults.maxConcurrent),
    maxQueue: integerFlag(values['max-queue'], '--max-queue', serverDefaults.maxQueue, 0),
    storeLocation: storeLocationOf(values.store, directory),
    ...(values['compaction-threads'] === undefined
      ? {}
      : { compactionThreads: integerFlag(values['compaction-threads'], '--compaction-threads', 0, 0) }),
  };
}

/** The `--port` flag's value, or `fallback` when it is not given; throws a usage error outside 0 to 65535. */
function portFlag(text: string | undefined, fallback: number): number {
  const port = text === undefined ? fallback : parseDecimalInteger(text);
  if (port === undefined || port > 65_535) throw usageError(`--port must be 0 to 65535, got "${text}"`);
  return port;
}

/** A whole-number flag (plain decimal digits) of at least `minimum`, or `fallback` when it is not given; throws a usage error. */
export function integerFlag(text: string | undefined, flag: string, fallback: number, minimum = 1): number {
  if (text === undefined) return fallback;
  const value = parseDecimalInteger(text);
  if (value === undefined || value < minimum)
    throw usageError(`${flag} must be an integer of at least ${minimum}, got "${text}"`);
  return value;
}

/**
 * Starts `server` listening and resolves with where it is reached, such as `http://127.0.0.1:4319` (an IPv6
 * address in brackets). When it cannot listen, `store` is closed and the error thrown: a port already in use
 * is a usage error that says to pick another.
 */
export async function startListening(
  server: Server,
  { port, host }: { port: number; host: string },
  store: { close(): Promise<void> } | undefined,
): Promise<string> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'EADDRINUSE'
            ? usageError(`port ${port} on ${host} is in use; pick another with --port`)
            : error,
        ),
      );
      server.listen(port, host, resolve);
    });
  } catch (error) {
    await store?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}`;
}

/** Whether a host name is reachable only from this machine, so listening on it needs no warning. */
export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}
