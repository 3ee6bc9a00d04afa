import type { AddressInfo } from 'node:net';
import type { CliIO } from '../cli-io.js';
import { createCliRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { usageError } from '../errors/cli-error.js';
import { serveHelp } from '../help.js';
import { compactionFlagOptions, helpFlagOptions, parseFlags } from '../parse-flags.js';
import { createCompactionServer, defaultMaxBodyBytes } from '../serve/compaction-server.js';

/** The default port of `compaction serve`. */
export const defaultPort = 4319;

/** `compaction serve`: the HTTP API, until SIGINT or SIGTERM. */
export async function serveCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags('serve', args, {
    ...helpFlagOptions,
    ...compactionFlagOptions,
    host: { type: 'string' },
    port: { type: 'string', short: 'p' },
    token: { type: 'string' },
    'max-body': { type: 'string' },
  });
  if (values.help) {
    io.stdout.write(serveHelp);
    return 0;
  }
  const port = values.port === undefined ? defaultPort : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw usageError(`--port must be 0 to 65535, got "${values.port}"`);
  const maxBodyBytes =
    values['max-body'] === undefined ? defaultMaxBodyBytes : parseBytes(values['max-body']);
  const host = values.host ?? '127.0.0.1';
  const token = values.token ?? io.env.COMPACTION_TOKEN;
  const registry = await createCliRegistry();
  const settings = resolveSettings(registry, values, io.cwd);
  const server = createCompactionServer({
    settings,
    registry,
    maxBodyBytes,
    environment: io.env,
    ...(token === undefined || token === '' ? {} : { token }),
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
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  io.stderr.write(
    `compaction serve listening on http://${shown}:${address.port} (strategy ${settings.strategyNames.join(', ')}` +
      `${token ? ', bearer token required' : ''})\n`,
  );
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1' && !token) {
    io.stderr.write(
      'warning: listening beyond loopback without --token: anyone who can reach this port can use it\n',
    );
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}

/** Parses a byte size: `1048576`, `512kb`, `10mb`. */
export function parseBytes(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|k|mb|m|gb|g)?$/i.exec(text.trim());
  if (match === null) throw usageError(`--max-body must be a size such as 512kb or 10mb, got "${text}"`);
  const unit = (match[2] ?? 'b').toLowerCase()[0];
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  const bytes = Math.floor(Number(match[1]) * factor);
  if (bytes < 1) throw usageError('--max-body must be at least 1 byte');
  return bytes;
}
