import type { ParseArgsConfig } from 'node:util';
import {
  CliError,
  type CompactionServer,
  checkBackground,
  contextWindowOf,
  createCompactionHttpServer,
  createInstalledStrategyRegistry,
  createRequestPolicy,
  describeStoreLocation,
  listenCompactionServer,
  observabilityFlagOptions,
  openSessionStore,
  ProviderPool,
  parseByteSize,
  parseDuration,
  readObservabilityFlags,
  readRetentionFlags,
  resolveSettings,
  type ShutdownResult,
  type StoreLocation,
  serverDefaults,
  usageError,
  verifyRequestPolicy,
  withBareOtelFlag,
} from '@compaction/server';
import type { CliIO } from '../cli-io.js';
import { serveHelp } from '../help.js';
import { parseFlags, printedHelp, valueFlags } from '../parse-flags.js';
import {
  integerFlag,
  isLoopback,
  listenOnFlags,
  readServerFlags,
  type ServerFlags,
  serverFlagOptions,
} from './server-start.js';

/** The default port of `compaction serve`. */
export const defaultPort = 4319;

/** Values of a list flag given once or more, each a comma-separated list. */
function listFlag(values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  return values
    .flatMap((value) => value.split(',').map((entry) => entry.trim()))
    .filter((entry) => entry !== '');
}

/**
 * The bearer token from `--token`, or else `COMPACTION_TOKEN`; none when neither is set. A token that is set
 * but empty or blank (`--token "$COMPACTION_TOKEN"` with the variable unset) is a usage error: read as "no
 * token", it would start a server open to anyone without a word.
 */
function tokenOf(flag: string | undefined, variable: string | undefined): string | undefined {
  const fromFlag = flag !== undefined;
  const token = fromFlag ? flag : variable;
  const source = fromFlag ? '--token' : 'the COMPACTION_TOKEN variable';
  if (token === undefined) return undefined;
  if (token.trim() === '') {
    const remedy = fromFlag ? 'give a secret, or leave --token out' : 'set it to a secret, or unset it';
    throw usageError(
      `${source} is ${token === '' ? 'empty' : 'blank'}: ${remedy} to serve without authentication`,
    );
  }
  if (token.trim() !== token) {
    throw usageError(`${source} begins or ends with whitespace, which no client can send in a header`);
  }
  return token;
}

/** The flags of `compaction serve` besides those of every server command. */
const serveFlagOptions = {
  ...serverFlagOptions,
  ...observabilityFlagOptions,
  'allow-strategy': { type: 'string', multiple: true },
  'allow-option': { type: 'string', multiple: true },
  'allow-model': { type: 'string', multiple: true },
  ...valueFlags(
    'token',
    'headers-timeout',
    'request-timeout',
    'max-sessions',
    'max-session-size',
    'session-idle',
    'shutdown-timeout',
    'store-pool-size',
    'store-lock-timeout',
    'retention',
    'retention-size',
  ),
} as const satisfies ParseArgsConfig['options'];

type ServeValues = ReturnType<typeof parseFlags<typeof serveFlagOptions>>['values'];

/** The limits and timeouts the flags set, each with the server's default. */
function readLimits(values: ServeValues, flags: ServerFlags) {
  const duration = (
    flag: 'headers-timeout' | 'request-timeout' | 'session-idle' | 'shutdown-timeout',
    fallback: number,
  ) => (values[flag] === undefined ? fallback : parseDuration(values[flag], `--${flag}`));
  const headersTimeoutMs = duration('headers-timeout', serverDefaults.headersTimeoutMs);
  const requestTimeoutMs = duration(
    'request-timeout',
    Math.max(headersTimeoutMs, serverDefaults.requestTimeoutMs),
  );
  if (headersTimeoutMs > requestTimeoutMs) {
    throw usageError(
      '--headers-timeout cannot be longer than --request-timeout (the headers are part of the request)',
    );
  }
  return {
    shutdownTimeoutMs: duration('shutdown-timeout', serverDefaults.shutdownTimeoutMs),
    limits: {
      maxBodyBytes: flags.maxBodyBytes,
      maxSessionBytes:
        values['max-session-size'] === undefined
          ? serverDefaults.maxSessionBytes
          : parseByteSize(values['max-session-size'], '--max-session-size'),
      sessionIdleMs: duration('session-idle', serverDefaults.sessionIdleMs),
      headersTimeoutMs,
      requestTimeoutMs,
      maxConcurrent: flags.maxConcurrent,
      maxQueue: flags.maxQueue,
      ...(flags.compactionThreads === undefined ? {} : { compactionThreads: flags.compactionThreads }),
      maxSessions: integerFlag(values['max-sessions'], '--max-sessions', serverDefaults.maxSessions),
    },
  };
}

/** The operator's settings and what a request's `config` may choose (`--allow-*`), checked against the registry. */
async function readPolicy(values: ServeValues, io: CliIO) {
  const registry = await createInstalledStrategyRegistry({ directory: io.cwd, config: values.config });
  const settings = resolveSettings(registry, values, io.cwd);
  const strategies = listFlag(values['allow-strategy']);
  const options = listFlag(values['allow-option']);
  const models = listFlag(values['allow-model']);
  const requestPolicy = createRequestPolicy(settings.config, settings.provider, {
    ...(strategies === undefined ? {} : { strategies }),
    ...(options === undefined ? {} : { options }),
    ...(models === undefined ? {} : { models }),
  });
  await verifyRequestPolicy(requestPolicy, registry);
  return { registry, settings, requestPolicy };
}

/** The store `--store` names, with its pool size and lock timeout. */
function openStore(values: ServeValues, storeLocation: StoreLocation) {
  return openSessionStore(storeLocation, {
    ...(values['store-pool-size'] === undefined
      ? {}
      : { poolSize: integerFlag(values['store-pool-size'], '--store-pool-size', 10) }),
    ...(values['store-lock-timeout'] === undefined
      ? {}
      : { lockTimeoutMs: parseDuration(values['store-lock-timeout'], '--store-lock-timeout') }),
  });
}

/** `compaction serve`: the HTTP API, until SIGINT or SIGTERM, which stop it gracefully. */
export async function serveCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags('serve', withBareOtelFlag(args), serveFlagOptions);
  if (printedHelp(values, serveHelp, io)) return 0;
  const flags = readServerFlags(
    values,
    { port: defaultPort, maxBodyBytes: serverDefaults.maxBodyBytes },
    io.cwd,
  );
  const { limits, shutdownTimeoutMs } = readLimits(values, flags);
  const retention = readRetentionFlags(values, flags.storeLocation);
  const token = tokenOf(values.token, io.env.COMPACTION_TOKEN);
  const { registry, settings, requestPolicy } = await readPolicy(values, io);
  // The operator's provider is built now, so a missing API key stops the start instead of failing requests.
  const provider = await new ProviderPool(settings.provider, io.env).get();
  checkBackground(flags.background, {
    ...settings.budget,
    contextWindow: contextWindowOf(settings, provider),
  });
  const observability = {
    ...(await readObservabilityFlags(values, io.env, 'compaction-serve')),
    log: (line: string) => io.stderr.write(`${line}\n`),
  };
  const { storeLocation } = flags;
  const store = await openStore(values, storeLocation);
  const server = createCompactionHttpServer({
    settings,
    registry,
    requestPolicy,
    ...limits,
    ...(flags.background === undefined ? {} : { background: flags.background }),
    environment: io.env,
    ...(token === undefined ? {} : { token }),
    ...(store === undefined ? {} : { store }),
    ...(retention === undefined ? {} : { retention }),
    observability,
  });
  let restored: number;
  try {
    restored = await server.restored;
  } catch (error) {
    await server.service.close(0);
    await store?.close();
    throw new CliError({
      reason: 'config',
      message: `cannot restore the sessions of ${storeLocation.kind === 'sqlite' ? storeLocation.path : 'the store'}: ${(error as Error).message}`,
      cause: error,
    });
  }
  const { url } = await listenOnFlags((address) => listenCompactionServer(server, address), flags, store);
  const details = [
    `strategy ${settings.strategyNames.join(', ')}`,
    `${describeStoreLocation(storeLocation, io.cwd)}${store === undefined ? '' : `, ${restored} restored`}`,
    ...(token === undefined ? [] : ['bearer token required']),
  ];
  io.stderr.write(`compaction serve listening on ${url} (${details.join('; ')})\n`);
  if (!isLoopback(flags.host) && token === undefined) {
    io.stderr.write(
      'warning: listening beyond loopback without --token: anyone who can reach this port can use it\n',
    );
  }
  const { unfinished } = await stopOnSignal(server, shutdownTimeoutMs, io);
  await store?.close();
  await observability.tracing?.shutdown().catch((error: Error) => {
    io.stderr.write(`compaction serve: could not send the last spans: ${error.message}\n`);
  });
  if (unfinished > 0) {
    io.stderr.write(
      `compaction serve: stopped; ${unfinished} requests were cut off at the shutdown timeout\n`,
    );
    return 1;
  }
  io.stderr.write('compaction serve: stopped\n');
  return 0;
}

/**
 * Resolves once SIGINT or SIGTERM has stopped the server gracefully; a second signal does not wait: whatever
 * is still running is cut off then.
 */
function stopOnSignal(
  server: CompactionServer,
  shutdownTimeoutMs: number,
  io: CliIO,
): Promise<ShutdownResult> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        io.stderr.write(`compaction serve: ${signal} again, closing every connection now\n`);
        server.closeAllConnections();
        return;
      }
      stopping = true;
      io.stderr.write(
        `compaction serve: ${signal}, stopping: finishing ${server.requestsInFlight} requests in flight ` +
          `(up to ${shutdownTimeoutMs} ms)\n`,
      );
      server.shutdown(shutdownTimeoutMs).then((result) => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve(result);
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
