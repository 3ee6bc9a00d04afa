import type { AddressInfo, Server } from 'node:net';

/** Where a listen helper listens. */
export interface ListenAddress {
  /** The port; 0 picks a free one. */
  port: number;
  /** The interface. Default `127.0.0.1`, loopback only. */
  host?: string;
}

/**
 * Listens on `address` and resolves with where the server is reached, such as `http://127.0.0.1:4319` (an IPv6
 * address in brackets); rejects with the listen error, such as `EADDRINUSE` for a port in use.
 */
export function listenOn(server: Server, address: ListenAddress): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const bound = server.address() as AddressInfo;
      const shown = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
      resolve(`http://${shown}:${bound.port}`);
    });
  });
}
