import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runtimeTimeoutMs, startProcess } from './run-process.js';
import type { ScenarioReport } from './scenario.js';

/**
 * The page's host name. It resolves to the loopback server only inside this Chromium (--host-resolver-rules),
 * and, not being `localhost` or an IP loopback address, its plain-HTTP origin is not a secure context: no
 * `crypto.randomUUID`, as on any page served over HTTP.
 */
export const insecureHost = 'runtimes.test';

const page = '<!doctype html><meta charset="utf-8"><script type="module" src="/host-page.js"></script>';
const scripts = new Set(['/host-page.js', '/scenario.js']);

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Opens the bundled scenario in a page of headless Chromium on an insecure origin and waits for its report. */
export async function runInChromium(binary: string, directory: string): Promise<ScenarioReport> {
  let settle: { resolve: (report: ScenarioReport) => void; reject: (error: Error) => void } | undefined;
  const reported = new Promise<ScenarioReport>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://host').pathname;
    if (request.method === 'POST' && (path === '/result' || path === '/error')) {
      const body = await bodyOf(request);
      response.end();
      if (path === '/result') settle?.resolve(JSON.parse(body) as ScenarioReport);
      else settle?.reject(new Error(`the page failed:\n${body}`));
      return;
    }
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      return;
    }
    if (scripts.has(path)) {
      const script = await readFile(join(directory, path.slice(1)));
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const profile = await mkdtemp(join(tmpdir(), 'compaction-chromium-'));
  const browser = startProcess(
    binary,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--no-proxy-server',
      // Only the page's host resolves, to the loopback server; every other name fails without a lookup.
      `--host-resolver-rules=MAP ${insecureHost} 127.0.0.1, MAP * ~NOTFOUND`,
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable',
      `http://${insecureHost}:${port}/`,
    ],
    { cwd: directory },
  );
  const timeout = setTimeout(
    () =>
      settle?.reject(new Error(`no report from the page in ${runtimeTimeoutMs} ms:\n${browser.output()}`)),
    runtimeTimeoutMs,
  );
  void browser.exited.then((how) => settle?.reject(new Error(`chromium ${how}:\n${browser.output()}`)));
  try {
    return await reported;
  } finally {
    clearTimeout(timeout);
    await browser.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(profile, { recursive: true, force: true });
  }
}
