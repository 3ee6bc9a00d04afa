import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { CompactionStore } from '@compaction/core';
import { type CompactTarget, listenCompactionMcp, serveCompactionMcpOverStdio } from '@compaction/mcp';
import {
  describeStoreLocation,
  openSessionStore,
  parseDecimalInteger,
  storeLocationOf,
  usageError,
} from '@compaction/server';
import type { CliIO } from '../cli-io.js';
import { mcpHelp } from '../help.js';
import { helpFlagOptions, parseFlags, printedHelp, valueFlags } from '../parse-flags.js';
import { listenOnFlags } from './server-start.js';

/** The default port of `compaction mcp --http` (next to serve's 4319 and the proxy's 4320). */
export const defaultMcpPort = 4321;

/**
 * `compaction mcp`: the MCP server with recall, search, compaction_status and compact over a store, on standard
 * input and output (as agents start MCP servers) or, with `--http`, on Streamable HTTP until SIGINT or SIGTERM.
 */
export async function mcpCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags('mcp', args, {
    ...helpFlagOptions,
    http: { type: 'boolean' },
    ...valueFlags('store', 'session', 'host', 'port', 'token', 'proxy', 'serve', 'serve-token'),
  });
  if (printedHelp(values, mcpHelp, io)) return 0;
  const httpOnly = (['host', 'port', 'token'] as const).filter((flag) => values[flag] !== undefined);
  if (values.http !== true && httpOnly.length > 0) {
    throw usageError(`mcp: --${httpOnly[0]} needs --http (see compaction mcp --help)`);
  }
  if (values.session === '') throw usageError('mcp: --session needs a session id');
  const location = storeLocationOf(values.store, io.cwd);
  if (location.kind === 'memory') {
    throw usageError(
      'mcp: --store must be a SQLite file, a postgres:// database or a store package, not memory',
    );
  }
  // A default store that is not there yet is created, so an agent can start the server before the proxy ran.
  if (location.kind === 'sqlite' && !location.defaulted && !existsSync(location.path)) {
    throw usageError(
      `mcp: no store at ${values.store} (compaction proxy --store ${values.store} creates it)`,
    );
  }
  const compactTarget = compactTargetOf(values);
  const store = (await openSessionStore(location)) as CompactionStore;
  const settings = {
    store,
    ...(values.session === undefined ? {} : { sessionId: values.session }),
    ...(compactTarget === undefined ? {} : { compactTarget }),
  };
  const where = describeStoreLocation(location, io.cwd);
  try {
    if (values.http !== true) {
      io.stderr.write(`compaction mcp: serving ${where} over standard input and output\n`);
      await serveCompactionMcpOverStdio({
        ...settings,
        input: io.stdin as Readable,
        output: io.stdout as Writable,
      });
      return 0;
    }
    const token = values.token ?? io.env.COMPACTION_TOKEN;
    const host = values.host ?? '127.0.0.1';
    const listener = await listenOnFlags(
      (address) =>
        listenCompactionMcp({ ...settings, ...address, ...(token === undefined ? {} : { token }) }),
      { host, port: portOf(values.port) },
      undefined,
    );
    const required = token === undefined ? '' : '; bearer token required';
    io.stderr.write(`compaction mcp listening on ${listener.url} (${where}${required})\n`);
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      const stop = (received: NodeJS.Signals) => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve(received);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    io.stderr.write(`compaction mcp: ${signal}, stopping\n`);
    await listener.close();
    return 0;
  } finally {
    await store.close();
  }
}

/** The `--port` flag's value, 0 to 65535, or the default. */
function portOf(text: string | undefined): number {
  if (text === undefined) return defaultMcpPort;
  const port = parseDecimalInteger(text);
  if (port === undefined || port > 65_535) throw usageError(`--port must be 0 to 65535, got "${text}"`);
  return port;
}

/**
 * Where the `compact` tool asks: `--proxy <url>` or `--serve <url>` (with `--serve-token` when serve requires
 * a token); none when neither is given.
 */
function compactTargetOf(values: {
  proxy?: string | undefined;
  serve?: string | undefined;
  'serve-token'?: string | undefined;
}): CompactTarget | undefined {
  const { proxy, serve } = values;
  if (proxy !== undefined && serve !== undefined) {
    throw usageError('mcp: give --proxy or --serve, not both (the compact tool asks one of them)');
  }
  if (values['serve-token'] !== undefined && serve === undefined) {
    throw usageError('mcp: --serve-token needs --serve');
  }
  const url = proxy ?? serve;
  if (url === undefined) return undefined;
  const flag = proxy === undefined ? '--serve' : '--proxy';
  if (!/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(url)) {
    throw usageError(
      `mcp: ${flag} must be the service's http:// URL, such as http://127.0.0.1:4320, got "${url}"`,
    );
  }
  if (proxy !== undefined) return { kind: 'proxy', url };
  const token = values['serve-token'];
  return { kind: 'serve', url, ...(token === undefined ? {} : { token }) };
}
