import { connect } from 'node:net';

/** A `fetch` to a running server with an optional bearer token and a JSON body. */
export function serveClient(url: string, token?: string) {
  return (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    return fetch(`${url}${path}`, {
      ...rest,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        'content-type': 'application/json',
        ...rest.headers,
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  };
}

/** What a raw connection received, and when it was closed. */
export interface RawExchange {
  /** Everything the server wrote, as text. */
  received: string;
  /** Milliseconds from connecting to the server closing the connection. */
  closedAfterMs: number;
  /** Bytes the client had written when the connection closed. */
  bytesWritten: number;
}

/**
 * Opens a TCP connection to the server and lets `talk` write to it (a request written slowly or only in
 * part); resolves once the server closes the connection, with what it answered. Writes after the server
 * closed are dropped, and a reset counts as a close. Rejects after `timeoutMs` if the server never closes.
 */
export function rawExchange(
  url: string,
  talk: (write: (data: string | Buffer) => boolean, closed: () => boolean) => void | Promise<void>,
  timeoutMs = 60_000,
): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    let received = '';
    let closed = false;
    let bytesWritten = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${timeoutMs} ms; it sent: ${received}`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      resolve({ received, closedAfterMs: performance.now() - started, bytesWritten });
    });
    socket.on('connect', () => {
      const write = (data: string | Buffer) => {
        if (closed || socket.destroyed) return false;
        bytesWritten += Buffer.byteLength(data);
        return socket.write(data);
      };
      Promise.resolve(talk(write, () => closed)).catch(reject);
    });
  });
}

/** The status code of a raw HTTP answer, or `undefined` when there was none. */
export function statusOf(received: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(received);
  return match === null ? undefined : Number(match[1]);
}

/** Waits until `check` holds, polling every 20 ms, for at most `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
