import {
  createInstalledStrategyRegistry,
  createProxyServer,
  defaultProxyMaxBodyBytes,
  describeStoreLocation,
  listenCompactionProxy,
  observabilityFlagOptions,
  openSessionStore,
  type ProxyServer,
  parseDuration,
  parseUpstreams,
  proxyStrategyDefaults,
  readObservabilityFlags,
  readRetentionFlags,
  resolveSettings,
  withBareOtelFlag,
} from '@compaction/server';
import type { CliIO } from '../cli-io.js';
import { proxyHelp } from '../help.js';
import { parseFlags, printedHelp } from '../parse-flags.js';
import { isLoopback, listenOnFlags, readServerFlags, serverFlagOptions } from './server-start.js';

/** The default port of `compaction proxy` (next to `compaction serve`'s 4319). */
export const defaultProxyPort = 4320;

/** `compaction proxy`: the compacting proxy, until SIGINT or SIGTERM. */
export async function proxyCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags('proxy', withBareOtelFlag(args), {
    ...serverFlagOptions,
    ...observabilityFlagOptions,
    upstream: { type: 'string', multiple: true },
    'upstream-timeout': { type: 'string' },
    retention: { type: 'string' },
    'retention-size': { type: 'string' },
    'no-archive': { type: 'boolean' },
  });
  if (printedHelp(values, proxyHelp, io)) return 0;
  const flags = readServerFlags(
    values,
    { port: defaultProxyPort, maxBodyBytes: defaultProxyMaxBodyBytes },
    io.cwd,
  );
  const upstreams = parseUpstreams(values.upstream);
  const retention = readRetentionFlags(values, flags.storeLocation);
  const registry = await createInstalledStrategyRegistry({ directory: io.cwd, config: values.config });
  const settings = resolveSettings(registry, values, io.cwd, proxyStrategyDefaults(registry));
  const observability = await readObservabilityFlags(values, io.env, 'compaction-proxy');
  const store = await openSessionStore(flags.storeLocation);
  let server: ProxyServer;
  try {
    server = await createProxyServer({
      settings,
      registry,
      upstreams,
      maxBodyBytes: flags.maxBodyBytes,
      maxConcurrent: flags.maxConcurrent,
      maxQueue: flags.maxQueue,
      ...(flags.compactionThreads === undefined ? {} : { compactionThreads: flags.compactionThreads }),
      ...(flags.background === undefined ? {} : { background: flags.background }),
      environment: io.env,
      ...(values['upstream-timeout'] === undefined
        ? {}
        : { upstreamTimeoutMs: parseDuration(values['upstream-timeout'], '--upstream-timeout') }),
      log: (line) => io.stderr.write(`${line}\n`),
      ...(store === undefined ? {} : { store }),
      archive: values['no-archive'] !== true,
      ...(retention === undefined ? {} : { retention }),
      observability,
    });
  } catch (error) {
    await store?.close();
    await observability.tracing?.shutdown().catch(() => undefined);
    throw error;
  }
  const { url } = await listenOnFlags((address) => listenCompactionProxy(server, address), flags, store);
  const routes = Object.entries(upstreams).map(
    ([provider, url]) => `${provider} → ${url.origin}${url.pathname.replace(/\/$/, '')}`,
  );
  io.stderr.write(
    `compaction proxy listening on ${url} ` +
      `(${routes.join(', ')}; strategy ${settings.strategyNames.join(', ')}; ${describeStoreLocation(flags.storeLocation, io.cwd).replace('sessions', 'conversations')}` +
      `${store === undefined || values['no-archive'] === true ? '' : ', what compactions remove archived there'})\n`,
  );
  if (!isLoopback(flags.host)) {
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
  await observability.tracing?.shutdown().catch((error: Error) => {
    io.stderr.write(`compaction proxy: could not send the last spans: ${error.message}\n`);
  });
  io.stderr.write('compaction proxy: stopped\n');
  return 0;
}
