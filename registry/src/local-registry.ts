import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runServer } from 'verdaccio';

/** A Verdaccio on loopback with its storage in a throwaway folder, and the npmrc that publishes to it. */
export interface LocalRegistry {
  /** The registry's URL, ending in `/`. */
  url: string;
  /** An npmrc with a token for the registry: what publishing needs. */
  publishConfig: string;
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Starts Verdaccio in this process (so it stops with it), storing in `folder`. It has no uplink: only the
 * packages published to it are there, and every other package comes from the usual registry, which the
 * applications reach through a scoped registry for `@compaction` only.
 */
export async function startLocalRegistry(folder: string): Promise<LocalRegistry> {
  const server = await runServer({
    self_path: folder,
    config_path: join(folder, 'config.yaml'),
    storage: join(folder, 'storage'),
    auth: { htpasswd: { file: join(folder, 'htpasswd'), max_users: 1 } },
    uplinks: {},
    packages: {
      '@compaction/*': { access: '$all', publish: '$authenticated' },
      '**': { access: '$all', publish: '$authenticated' },
    },
    log: { type: 'stdout', format: 'pretty', level: 'error' },
    web: { enable: false },
    // The largest package (the CLI, with its bundled conversation) is over Verdaccio's default limit.
    max_body_size: '100mb',
  } as never);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  try {
    const token = await addUser(url);
    const publishConfig = join(folder, 'publish.npmrc');
    writeFileSync(publishConfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
    return { url, publishConfig, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Creates the one user of the registry, as `npm adduser` does, and returns its token. */
async function addUser(url: string): Promise<string> {
  const name = 'registry-check';
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: 'throwaway-password', type: 'user', roles: [] }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || typeof body.token !== 'string') {
    throw new Error(`The local registry refused a user: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}
