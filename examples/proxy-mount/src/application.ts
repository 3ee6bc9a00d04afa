import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import {
  type CompactionProxy,
  createCompactionProxy,
  createInstalledStrategyRegistry,
  parseUpstreams,
  resolveSettings,
} from '@compaction/server';

/** The application's own server with the proxy mounted in it, and how to stop both. */
export interface RunningApplication {
  /** `http://127.0.0.1:<port>` */
  url: string;
  proxy: CompactionProxy;
  /** The proxy's compaction lines, one per compaction. */
  lines: string[];
  close(): Promise<void>;
}

/**
 * An application's own Node `http` server: its own route (`GET /health`), and the compacting proxy mounted
 * under `/llm`, forwarding to `upstream` with a 8,000-token window, so a conversation that outgrows it is
 * compacted on the way (tool results shortened first, then the oldest turns left out).
 */
export async function startApplication(upstream: string): Promise<RunningApplication> {
  const registry = await createInstalledStrategyRegistry();
  // The system's temporary folder: no `compaction.config.json` of a folder above is picked up.
  const settings = resolveSettings(
    registry,
    { 'context-window': '8000', strategy: 'tool-result-truncation,sliding-window' },
    tmpdir(),
  );
  const lines: string[] = [];
  const proxy = await createCompactionProxy({
    settings,
    registry,
    upstreams: parseUpstreams([upstream]),
    basePath: '/llm',
    log: (line) => lines.push(line),
  });
  const server = createServer((request, response) => {
    if (request.url === '/health') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
      return;
    }
    if (request.url?.startsWith('/llm/')) {
      proxy.handle(request, response);
      return;
    }
    response.writeHead(404).end();
  });
  const url = await listen(server);
  return {
    url,
    proxy,
    lines,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await proxy.close();
    },
  };
}

/** Listens on a free loopback port and resolves with the server's URL. */
function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('the server has no TCP address'));
      else resolve(`http://127.0.0.1:${address.port}`);
    });
  });
}
