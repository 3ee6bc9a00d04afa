import { createServer, Server } from 'node:http';
import { type ListenAddress, listenOn } from '../listen-on.js';
import { type CompactionService, createCompactionServer } from './compaction-server.js';
import type { CompactionServerSettings, ShutdownResult } from './compaction-server-settings.js';
import { serverDefaults } from './server-defaults.js';

/** The `node:http` server of `compaction serve`, around a {@link CompactionService}, with a graceful stop. */
export interface CompactionServer extends Server {
  /**
   * Stops accepting connections and answers new requests on open ones with 503, lets the requests in flight
   * finish (up to `timeoutMs`), ends every event stream with `session.ended` (`shutdown`), then closes
   * every connection and resolves once the server is closed.
   */
  shutdown(timeoutMs?: number): Promise<ShutdownResult>;
  /** Requests being answered now, event streams left out. */
  readonly requestsInFlight: number;
  /**
   * Resolves with the number of sessions restored from the store and still live (0 without a store); rejects
   * when the store cannot be read. Requests wait for it.
   */
  readonly restored: Promise<number>;
  /** The handler the server runs. */
  readonly service: CompactionService;
}

/**
 * A `node:http` server whose whole handler is {@link createCompactionServer}'s, not listening yet, with Node's
 * timeouts for slow clients set from the settings. Closing it stops the service too.
 */
export function createCompactionHttpServer(options: CompactionServerSettings): CompactionServer {
  const service = createCompactionServer(options);
  const headersTimeout = options.headersTimeoutMs ?? serverDefaults.headersTimeoutMs;
  const requestTimeout = Math.max(
    headersTimeout,
    options.requestTimeoutMs ?? serverDefaults.requestTimeoutMs,
  );
  // `headersTimeout` bounds the request line and headers, `requestTimeout` the whole request with its body (408,
  // then the connection is closed). Neither runs once the request has arrived, so a slow compaction is not cut
  // off. Node checks them every `connectionsCheckingInterval` (30 s by default), which would let a slow client
  // stay up to 30 s past its timeout, so it is checked more often here.
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    service.handle,
  ) as CompactionServer;
  const closed = new Promise<void>((resolve) => server.once('close', resolve));
  // Closed without a stop (`server.close()`): no request is left, so the service stops at once.
  server.on('close', () => void service.close(0));
  Object.defineProperty(server, 'requestsInFlight', { get: () => service.requestsInFlight });
  Object.defineProperty(server, 'restored', { value: service.restored });
  Object.defineProperty(server, 'service', { value: service });
  // `server.close()` alone waits, without bound, for every connection, event streams included, and lets
  // requests on open connections keep arriving; the stop bounds the wait and ends the streams itself.
  let stopping: Promise<ShutdownResult> | undefined;
  server.shutdown = (timeoutMs = serverDefaults.shutdownTimeoutMs) => {
    stopping ??= (async () => {
      // Stops accepting and closes idle keep-alive connections; busy ones close after their answer.
      server.close();
      const result = await service.close(timeoutMs);
      server.closeAllConnections();
      await closed;
      return result;
    })();
    return stopping;
  };
  return server;
}

/**
 * Starts a server of {@link createCompactionHttpServer} (made from `server` when it is settings) on `address`
 * (loopback unless a host is given) once the sessions of its store are restored, and resolves with it and the
 * URL it answers on. When the store cannot be read or the server cannot listen (a port in use), the service is
 * stopped and the error thrown.
 */
export async function listenCompactionServer(
  server: CompactionServer | CompactionServerSettings,
  address: ListenAddress,
): Promise<{ server: CompactionServer; url: string }> {
  const http = server instanceof Server ? server : createCompactionHttpServer(server);
  try {
    await http.restored;
    return { server: http, url: await listenOn(http, address) };
  } catch (error) {
    await http.service.close(0);
    throw error;
  }
}
