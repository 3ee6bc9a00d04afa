import type { CliIO } from '../cli-io.js';
import { createCliRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { CliError, usageError } from '../errors/cli-error.js';
import { serveHelp } from '../help.js';
import { parseFlags, printedHelp, valueFlags } from '../parse-flags.js';
import { createCompactionServer } from '../serve/compaction-server.js';
import { parseByteSize } from '../serve/parse-byte-size.js';
import { parseDuration } from '../serve/parse-duration.js';
import { ProviderPool } from '../serve/provider-pool.js';
import { createRequestPolicy, verifyRequestPolicy } from '../serve/request-policy.js';
import { readRetentionFlags } from '../serve/retention-sweep.js';
import { serverDefaults } from '../serve/server-defaults.js';
import { describeStoreLocation, openSessionStore } from '../serve/session-store.js';
import {
  integerFlag,
  isLoopback,
  readServerFlags,
  serverFlagOptions,
  startListening,
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

/** `compaction serve`: the HTTP API, until SIGINT or SIGTERM, which stop it gracefully. */
export async function serveCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags('serve', args, {
    ...serverFlagOptions,
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
  });
  if (printedHelp(values, serveHelp, io)) return 0;
  const flags = readServerFlags(
    values,
    { port: defaultPort, maxBodyBytes: serverDefaults.maxBodyBytes },
    io.cwd,
  );
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
  const shutdownTimeoutMs = duration('shutdown-timeout', serverDefaults.shutdownTimeoutMs);
  const limits = {
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
  };
  const retention = readRetentionFlags(values, flags.storeLocation);
  const token = tokenOf(values.token, io.env.COMPACTION_TOKEN);
  const registry = await createCliRegistry({ directory: io.cwd, config: values.config });
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
  // The operator's provider is built now, so a missing API key stops the start instead of failing requests.
  await new ProviderPool(settings.provider, io.env).get();
  const { storeLocation } = flags;
  const store = await openSessionStore(storeLocation, {
    ...(values['store-pool-size'] === undefined
      ? {}
      : { poolSize: integerFlag(values['store-pool-size'], '--store-pool-size', 10) }),
    ...(values['store-lock-timeout'] === undefined
      ? {}
      : { lockTimeoutMs: parseDuration(values['store-lock-timeout'], '--store-lock-timeout') }),
  });
  const server = createCompactionServer({
    settings,
    registry,
    requestPolicy,
    ...limits,
    environment: io.env,
    ...(token === undefined ? {} : { token }),
    ...(store === undefined ? {} : { store }),
    ...(retention === undefined ? {} : { retention }),
  });
  let restored: number;
  try {
    restored = await server.restored;
  } catch (error) {
    await store?.close();
    throw new CliError({
      reason: 'config',
      message: `cannot restore the sessions of ${storeLocation.kind === 'sqlite' ? storeLocation.path : 'the store'}: ${(error as Error).message}`,
      cause: error,
    });
  }
  const url = await startListening(server, flags, store);
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
  const { unfinished } = await new Promise<{ unfinished: number }>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        // A second signal does not wait: whatever is still running is cut off now.
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
  await store?.close();
  if (unfinished > 0) {
    io.stderr.write(
      `compaction serve: stopped; ${unfinished} requests were cut off at the shutdown timeout\n`,
    );
    return 1;
  }
  io.stderr.write('compaction serve: stopped\n');
  return 0;
}
