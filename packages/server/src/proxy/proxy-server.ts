import { createServer, Server } from 'node:http';
import { type ListenAddress, listenOn } from '../listen-on.js';
import { observeRequests } from '../observability/observe-requests.js';
import { proxyObservability, proxyObservation } from '../observability/proxy-observation.js';
import { serverDefaults } from '../serve/server-defaults.js';
import { type CompactionProxy, createCompactionProxy } from './compaction-proxy.js';
import type { CompactionProxySettings, ProxyStatus } from './proxy-settings.js';

/** The `node:http` server of `compaction proxy`, around a {@link CompactionProxy}. */
export interface ProxyServer extends Server {
  /** The counts `GET /compaction/status` answers. */
  status(): ProxyStatus;
  /** The handler the server runs. */
  readonly proxy: CompactionProxy;
}

/**
 * A `node:http` server whose whole handler is {@link createCompactionProxy}'s, not listening yet. A slow
 * client is held to the server's bounds: the request line and headers in 10 s, the whole body in 60 s.
 * Closing the server stops the proxy's threads. `GET /metrics` answers its Prometheus metrics unless
 * `observability.metrics` is false, every answer carries an `x-request-id`, and requests are logged and traced
 * as `observability` says.
 */
export async function createProxyServer(options: CompactionProxySettings): Promise<ProxyServer> {
  let proxy: CompactionProxy | undefined;
  const observed = proxyObservability(
    { ...(options.log === undefined ? {} : { log: options.log }), ...options.observability },
    () => (proxy as CompactionProxy).status(),
  );
  proxy = await createCompactionProxy({
    ...options,
    log: (line) => observed.log.line(line),
    observer: observed,
  });
  const timeouts = {
    headersTimeout: serverDefaults.headersTimeoutMs,
    requestTimeout: serverDefaults.requestTimeoutMs,
    connectionsCheckingInterval: 1000,
  };
  const handle = observeRequests(proxy.handle, proxyObservation(observed, options.basePath));
  const server = createServer(timeouts, handle) as ProxyServer;
  server.status = proxy.status;
  Object.defineProperty(server, 'proxy', { value: proxy });
  server.on('close', () => void proxy.close());
  return server;
}

/**
 * Starts a server of {@link createProxyServer} (made from `server` when it is settings) on `address` (loopback
 * unless a host is given) and resolves with it and the URL it answers on. When it cannot listen (a port in
 * use), the proxy is stopped and the error thrown.
 */
export async function listenCompactionProxy(
  server: ProxyServer | CompactionProxySettings,
  address: ListenAddress,
): Promise<{ server: ProxyServer; url: string }> {
  const http = server instanceof Server ? server : await createProxyServer(server);
  try {
    return { server: http, url: await listenOn(http, address) };
  } catch (error) {
    await http.proxy.close();
    throw error;
  }
}
