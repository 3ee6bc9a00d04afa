import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentLaunchers } from './agent-launchers.mjs';
import { binaryPath } from './install-agents.mjs';
import { checkRecall, createRecallSteps, mcpServerName } from './recall-task.mjs';
import { startRecordingPassThrough } from './recording-pass-through.mjs';
import { startScriptedProvider } from './scripted-provider.mjs';
import { taskText, writeTaskFiles } from './scripted-task.mjs';

const cliBinary = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));

/** A free loopback port. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a process in a group of its own, so the time limit ends it and what it started; resolves at exit. */
function runProcess(command, args, options, timeLimitMs, overLimit) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }, timeLimitMs);
  // An agent that loops (its own compaction thrashing) is stopped once it has sent far more requests than the
  // task needs.
  let loopStopped = false;
  const watch = setInterval(() => {
    if (!overLimit()) return;
    loopStopped = true;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }, 500);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(watch);
      if (loopStopped) {
        resolve({ code, timedOut: true, output: `${output}\n[stopped after too many requests]` });
        return;
      }
      resolve({ code, timedOut, output });
    });
  });
}

/**
 * Starts `compaction proxy` (the built CLI) in front of `upstream`, and waits until it answers; its store is
 * memory, or the SQLite file `store`, where it archives what its compactions remove.
 */
async function startProxy(upstream, window, store = 'memory') {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      cliBinary,
      'proxy',
      '--upstream',
      upstream,
      '--port',
      String(port),
      '--context-window',
      String(window),
      '--store',
      store,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const lines = [];
  child.stderr.on('data', (chunk) =>
    lines.push(
      ...String(chunk)
        .split('\n')
        .filter((line) => line !== ''),
    ),
  );
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await fetch(`${url}/compaction/status`);
      if (answer.ok) break;
    } catch {}
    if (attempt > 100 || child.exitCode !== null)
      throw new Error(`compaction proxy did not start: ${lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    lines,
    status: async () => (await fetch(`${url}/compaction/status`)).json(),
    close: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.on('close', resolve));
    },
  };
}

/**
 * One run of an agent on the scripted task: alone against the provider, through the proxy, or the recording
 * run (see below). Returns what it
 * sent, what the provider received, the proxy's status and how the agent ended.
 */
export async function runAgent({ agent, settings, mode, providerLimit, log, recall = false }) {
  const launcher = agentLaunchers[agent];
  const folder = mkdtempSync(join(tmpdir(), 'agents-work-'));
  const home = mkdtempSync(join(tmpdir(), 'agents-home-'));
  // The recall task: the proxy archives in a SQLite file of its own, which `compaction mcp` serves the agent.
  const store = recall ? join(home, 'archive.sqlite') : undefined;
  const steps = recall ? createRecallSteps() : undefined;
  writeTaskFiles(folder, settings.fileCount, settings.fileBytes);
  const task = taskText(settings.fileCount);
  // The recording run sends the agent's requests to the provider directly, with no limit and the usage a
  // proxy's compacted requests would report: the sequence the agent sends through a proxy that works.
  const recording = mode === 'record';
  const provider = await startScriptedProvider({
    folder,
    fileCount: settings.fileCount,
    limit: recording ? Number.POSITIVE_INFINITY : providerLimit,
    ...(recording ? { usageAtMost: Math.floor(settings.window / 2) } : {}),
    ...(steps === undefined ? {} : { extraStep: steps.step }),
  });
  const proxy = mode === 'proxy' ? await startProxy(provider.url, settings.window, store) : undefined;
  const passThrough = await startRecordingPassThrough(proxy?.url ?? provider.url);
  const started = performance.now();
  try {
    const { args, environment } = launcher.launch({
      baseUrl: passThrough.url,
      folder,
      home,
      task,
      window: settings.agentWindow,
      ...(store === undefined
        ? {}
        : {
            mcp: {
              name: mcpServerName,
              command: process.execPath,
              args: [cliBinary, 'mcp', '--store', store],
            },
          }),
    });
    log(`${launcher.title} ${mode}: window ${settings.window}, provider limit ${providerLimit}`);
    const ended = await runProcess(
      binaryPath(launcher.binary),
      args,
      {
        cwd: folder,
        env: { PATH: process.env.PATH, HOME: home, TERM: 'dumb', NO_COLOR: '1', ...environment },
      },
      settings.timeLimitMs,
      () => passThrough.sent.length > settings.fileCount * 3 + 20,
    );
    const status = proxy === undefined ? undefined : await proxy.status();
    const recalled =
      steps === undefined
        ? undefined
        : await checkRecall(launcher.format, passThrough.sent, steps.state, store);
    return {
      agent,
      mode,
      folder,
      task,
      providerLimit,
      seconds: (performance.now() - started) / 1000,
      ended,
      sent: passThrough.sent,
      exchanges: provider.exchanges,
      status,
      proxyLines: proxy?.lines ?? [],
      ...(steps === undefined ? {} : { recall: recalled }),
    };
  } finally {
    await passThrough.close();
    await proxy?.close();
    await provider.close();
    rmSync(home, { recursive: true, force: true });
  }
}
