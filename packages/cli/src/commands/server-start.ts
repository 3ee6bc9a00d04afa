import type { ParseArgsConfig } from 'node:util';
import type { BackgroundSettings } from '@compaction/core';
import {
  type ListenAddress,
  parseByteSize,
  parseDecimalInteger,
  readBackgroundFlags,
  type StoreLocation,
  serverDefaults,
  storeLocationOf,
  usageError,
} from '@compaction/server';
import { compactionFlagOptions, helpFlagOptions, valueFlags } from '../parse-flags.js';

/** The flags of every command that runs a server (`serve`, `proxy`). */
export const serverFlagOptions = {
  ...helpFlagOptions,
  ...compactionFlagOptions,
  port: { type: 'string', short: 'p' },
  ...valueFlags(
    'host',
    'max-body',
    'max-concurrent',
    'max-queue',
    'store',
    'compaction-threads',
    'background-at',
    'background-concurrency',
  ),
} as const satisfies ParseArgsConfig['options'];

/** The values of {@link serverFlagOptions} as parsed. */
export type ServerFlagValues = {
  [Name in
    | 'port'
    | 'host'
    | 'max-body'
    | 'max-concurrent'
    | 'max-queue'
    | 'store'
    | 'compaction-threads'
    | 'background-at'
    | 'background-concurrency']?: string | undefined;
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
  /** `--background-at` and `--background-concurrency`: compaction ahead of the trigger; none when off. */
  background?: BackgroundSettings;
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
  const background = readBackgroundFlags(values);
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
    ...(background === undefined ? {} : { background }),
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
 * Runs a listen helper of `@compaction/server` on the flags' port and host. When it cannot listen, `store` is
 * closed and the error thrown: a port already in use is a usage error that says to pick another.
 */
export async function listenOnFlags<Listening>(
  listen: (address: ListenAddress) => Promise<Listening>,
  { port, host }: { port: number; host: string },
  store: { close(): Promise<void> } | undefined,
): Promise<Listening> {
  try {
    return await listen({ port, host });
  } catch (error) {
    await store?.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw usageError(`port ${port} on ${host} is in use; pick another with --port`);
    }
    throw error;
  }
}

/** Whether a host name is reachable only from this machine, so listening on it needs no warning. */
export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}
