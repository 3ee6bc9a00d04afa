import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freeLoopbackPort } from './free-port.js';
import { runtimeTimeoutMs, startProcess } from './run-process.js';
import type { ScenarioReport } from './scenario.js';

// A Worker of the two bundled modules, without nodejs_compat: the code must run on Web APIs alone.
const config = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "scenario", worker = .scenarioWorker)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "scenario")],
);

const scenarioWorker :Workerd.Worker = (
  modules = [
    (name = "host-worker.js", esModule = embed "host-worker.js"),
    (name = "scenario.js", esModule = embed "scenario.js"),
  ],
  compatibilityDate = "2025-01-01",
);
`;

/** Serves the bundled scenario as a Worker in workerd, on a loopback port, and asks it for the report. */
export async function runInWorkerd(binary: string, directory: string): Promise<ScenarioReport> {
  await writeFile(join(directory, 'workerd.capnp'), config);
  const port = await freeLoopbackPort();
  const server = startProcess(binary, ['serve', 'workerd.capnp', '--socket-addr', `http=127.0.0.1:${port}`], {
    cwd: directory,
  });
  let exit: string | undefined;
  void server.exited.then((how) => {
    exit = how;
  });
  try {
    const deadline = Date.now() + runtimeTimeoutMs;
    while (Date.now() < deadline && exit === undefined) {
      const response = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
      if (response) {
        const body = await response.text();
        if (!response.ok) throw new Error(`workerd answered ${response.status}:\n${body}`);
        return JSON.parse(body) as ScenarioReport;
      }
      await delay(100);
    }
    throw new Error(`workerd ${exit ?? 'did not answer in time'}:\n${server.output()}`);
  } finally {
    await server.stop();
  }
}
