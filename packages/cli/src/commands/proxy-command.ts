import type { AddressInfo } from 'node:net';
import type { CliIO } from '../cli-io.js';
import { createCliRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { usageError } from '../errors/cli-error.js';
import { proxyHelp } from '../help.js';
import {
  compactionFlagOptions,
  helpFlagOptions,
  parseFlags,
  printedHelp,
  valueFlags,
} from '../parse-flags.js';
import { createProxyServer, defaultProxyMaxBodyBytes } from '../proxy/proxy-server.js';
import { parseUpstreams } from '../proxy/upstreams.js';
import { parseByteSize } from '../serve/parse-byte-size.js';
import { serverDefaults } from '../serve/server-defaults.js';
import { describeStoreLocation, openSessionStore, storeLocationOf } from '../serve/session-store.js';

/** The default port of `compaction proxy` (next to `compaction serve`'s 4319). */
export const defaultProxyPort = 4320;

/** `compaction proxy`: the compacting proxy, until SIGINT or SIGTERM. */
export async function proxyCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags('proxy', args, {
    ...helpFlagOptions,
    ...compactionFlagOptions,
    port: { type: 'string', short: 'p' },
    upstream: { type: 'string', multiple: true },
    'max-concurrent': { type: 'string' },
    'max-queue': { type: 'string' },
    ...valueFlags('host', 'max-body', 'store'),
  });
  if (printedHelp(values, proxyHelp, io)) return 0;
  const port = values.port === undefined ? defaultProxyPort : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw usageError(`--port must be 0 to 65535, got "${values.port}"`);
  const upstreams = parseUpstreams(values.upstream);
  const maxBodyBytes =
    values['max-body'] === undefined
      ? defaultProxyMaxBodyBytes
      : parseByteSize(values['max-body'], '--max-body');
  const count = (flag: 'max-concurrent' | 'max-queue', fallback: number, minimum: number) => {
    const text = values[flag];
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum)
      throw usageError(`--${flag} must be an integer of at least ${minimum}, got "${text}"`);
    return value;
  };
  const maxConcurrent = count('max-concurrent', serverDefaults.maxConcurrent, 1);
  const maxQueue = count('max-queue', serverDefaults.maxQueue, 0);
  const host = values.host ?? '127.0.0.1';
  const registry = await createCliRegistry();
  const settings = resolveSettings(registry, values, io.cwd);
  const storeLocation = storeLocationOf(values.store, io.cwd);
  const store = await openSessionStore(storeLocation);
  let server: Awaited<ReturnType<typeof createProxyServer>>;
  try {
    server = await createProxyServer({
      settings,
      registry,
      upstreams,
      maxBodyBytes,
      maxConcurrent,
      maxQueue,
      environment: io.env,
      log: (line) => io.stderr.write(`${line}\n`),
      ...(store === undefined ? {} : { store }),
    });
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
  const routes = Object.entries(upstreams).map(
    ([provider, url]) => `${provider} → ${url.origin}${url.pathname.replace(/\/$/, '')}`,
  );
  io.stderr.write(
    `compaction proxy listening on http://${shown}:${address.port} ` +
      `(${routes.join(', ')}; strategy ${settings.strategyNames.join(', ')}; ${describeStoreLocation(storeLocation, io.cwd).replace('sessions', 'conversations')})\n`,
  );
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    io.stderr.write(
      'warning: listening beyond loopback: anyone who can reach this port can send requests through it\n',
    );
  }
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      io.stderr.write(`compaction proxy: ${signal}, stopping\n`);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close(() => resolve());
      // Streams still open would hold the close without bound; they are cut after the requests in flight.
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 5000).unref();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await store?.close();
  io.stderr.write('compaction proxy: stopped\n');
  return 0;
}
