#!/usr/bin/env node
// Runs the real coding agents from npm through `compaction proxy` against a scripted loopback provider, checks
// every forwarded request, writes the results table into docs/proxy.md and records each agent's requests as
// the fixtures that packages/server/src/proxy/proxy-agents-replay.test.ts replays. See CONTRIBUTING.md.
//
//   node agents/run.mjs [--agents codex,claude-code,pi,opencode] [--no-alone] [--no-half-limit] [--no-record]
//                       [--no-docs] [--table-only]
//   node agents/run.mjs --recall [--agents claude-code,codex]   (the recall task alone; see recall-task.mjs)

import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { agentLaunchers } from './agent-launchers.mjs';
import { agentVersions } from './agent-versions.mjs';
import { evaluateRun, mainRequests } from './evaluate-run.mjs';
import { encodeRequests, writeFixture } from './fixture-recorder.mjs';
import { installAgents, installedVersion, installFolder } from './install-agents.mjs';
import { defaultRecallAgents, runRecallTask } from './recall-run.mjs';
import { resultsTable, writeResultsSection } from './results-table.mjs';
import { runAgent } from './run-agent.mjs';

/**
 * Each agent's task: the proxy's window and the provider's limit (at which the agent fails alone), the window
 * the agent is told its model has (its default for Codex and Claude Code, a usual 200k for pi and opencode,
 * which need one), and files that outgrow the limit several times over.
 */
const settings = {
  codex: { window: 30_000, fileCount: 40, fileBytes: 12_000, timeLimitMs: 10 * 60_000, api: 'Responses' },
  'claude-code': {
    window: 100_000,
    fileCount: 40,
    fileBytes: 60_000,
    timeLimitMs: 15 * 60_000,
    api: 'Messages',
  },
  pi: {
    window: 60_000,
    agentWindow: 200_000,
    fileCount: 40,
    fileBytes: 24_000,
    timeLimitMs: 10 * 60_000,
    api: 'Chat Completions',
  },
  opencode: {
    window: 60_000,
    agentWindow: 200_000,
    fileCount: 40,
    fileBytes: 24_000,
    timeLimitMs: 10 * 60_000,
    api: 'Chat Completions',
  },
};
for (const [agent, each] of Object.entries(settings)) each.title = agentLaunchers[agent].title;

const { values } = parseArgs({
  options: {
    agents: { type: 'string', default: Object.keys(settings).join(',') },
    'no-alone': { type: 'boolean', default: false },
    'no-half-limit': { type: 'boolean', default: false },
    'no-record': { type: 'boolean', default: false },
    'no-docs': { type: 'boolean', default: false },
    // Writes the table from the last runs' results again, without running an agent.
    'table-only': { type: 'boolean', default: false },
    // Runs the recall task (the agents that load MCP servers) instead of the table's runs.
    recall: { type: 'boolean', default: false },
  },
});
if (values.recall) {
  installAgents((line) => process.stderr.write(`agents: ${line}\n`));
  const named = process.argv.some((argument) => argument.startsWith('--agents'));
  const chosen = named ? values.agents.split(',').map((name) => name.trim()) : defaultRecallAgents;
  process.exitCode = (await runRecallTask(chosen)) ? 0 : 1;
  process.exit();
}
const agents = values['table-only'] ? [] : values.agents.split(',').map((name) => name.trim());
for (const agent of agents) {
  if (settings[agent] === undefined)
    throw new Error(`unknown agent "${agent}" (known: ${Object.keys(settings).join(', ')})`);
}

const log = (line) => process.stderr.write(`agents: ${line}\n`);
const fixtureFolder = fileURLToPath(
  new URL('../packages/server/src/proxy/__fixtures__/agents/', import.meta.url),
);
const docsPage = fileURLToPath(new URL('../docs/proxy.md', import.meta.url));

if (!values['table-only']) installAgents(log);
const versions = Object.fromEntries(Object.keys(agentVersions).map((name) => [name, installedVersion(name)]));

const rows = [];
for (const agent of agents) {
  const each = settings[agent];
  const launcher = agentLaunchers[agent];
  const modes = [
    ...(values['no-alone'] ? [] : [{ mode: 'alone', limit: each.window }]),
    { mode: 'proxy', limit: each.window },
    ...(values['no-half-limit'] ? [] : [{ mode: 'proxy-half-limit', limit: Math.floor(each.window / 2) }]),
  ];
  for (const { mode, limit } of modes) {
    let run;
    try {
      run = await runAgent({
        agent,
        settings: each,
        mode: mode === 'alone' ? 'alone' : 'proxy',
        providerLimit: limit,
        log,
      });
    } catch (error) {
      // A run that could not start (the proxy's build half-written, say) leaves no row; the others go on.
      log(`${launcher.title} ${mode} did not run: ${error.message}`);
      process.exitCode = 1;
      continue;
    }
    run.mode = mode;
    const row = evaluateRun(run);
    rows.push(row);
    log(
      `${launcher.title} ${mode}: finished ${row.finished} (exit ${row.exitCode}, ${row.seconds.toFixed(0)} s, ` +
        `${row.filesRead}/${each.fileCount} files), ${row.requests} requests, ${row.upstreamRequests} upstream, ` +
        `${row.refused} refused, ${row.compacted} compacted, ${row.violations} new violations ` +
        `[${row.violatedRules.join(', ')}], task missing in ${row.taskMissing}, newest turn lost in ${row.newestLost}, notes piled up in ${row.notesPiledUp} ` +
        `(most ${row.mostNotes}), prefix held ${row.prefixHeld}/${row.prefixChances}, bill ${row.billRatio?.toFixed(3) ?? '–'}`,
    );
    if (!row.finished) log(`${launcher.title} ${mode} ended with: ${row.tail.replaceAll('\n', ' | ')}`);
    rmSync(run.folder, { recursive: true, force: true });
  }
  if (!values['no-record']) {
    const run = await runAgent({
      agent,
      settings: each,
      mode: 'record',
      providerLimit: Number.POSITIVE_INFINITY,
      log,
    });
    const row = evaluateRun(run);
    log(
      `${launcher.title} record: finished ${row.finished} (exit ${row.exitCode}), ${row.requests} requests`,
    );
    // A fixture is recorded from a run that finished, so the replay covers a whole task.
    if (row.finished) {
      const listKey = launcher.format === 'openai-responses' ? 'input' : 'messages';
      const fixture = {
        agent,
        title: launcher.title,
        package: launcher.packageName,
        version: versions[launcher.packageName],
        format: launcher.format,
        path: mainRequests(run)[0]?.path,
        window: each.window,
        fileCount: each.fileCount,
        task: run.task,
        requests: encodeRequests(
          mainRequests(run).map((record) => record.body),
          listKey,
          run.folder,
        ),
      };
      writeFixture(`${fixtureFolder}${agent}.json`, fixture);
      log(`recorded ${fixture.requests.length} requests into ${fixtureFolder}${agent}.json`);
    }
    rmSync(run.folder, { recursive: true, force: true });
  }
}

// The table holds every agent's latest rows: a run of some agents keeps the others' rows from earlier runs.
const resultsFile = join(installFolder, 'results.json');
const earlier = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : [];
const allRows = [
  ...earlier.filter((row) => !agents.includes(row.agent)),
  ...rows.map(({ tail, ...row }) => row),
].sort(
  (first, second) => Object.keys(settings).indexOf(first.agent) - Object.keys(settings).indexOf(second.agent),
);
writeFileSync(`${resultsFile}.${process.pid}.tmp`, `${JSON.stringify(allRows, null, 1)}\n`);
renameSync(`${resultsFile}.${process.pid}.tmp`, resultsFile);
const table = resultsTable(allRows, versions, settings, new Date().toISOString().slice(0, 10));
process.stdout.write(`${table}\n\n`);
for (const row of allRows.filter((each) => each.mode === 'proxy' && each.finished)) {
  process.stdout.write(
    `bill with a prompt cache, ${settings[row.agent].title}: ${row.billRatio?.toFixed(3) ?? '–'}× of no compaction\n`,
  );
}
if (!values['no-docs']) {
  writeResultsSection(
    docsPage,
    table,
    '## Real agents through the proxy\n\n' +
      'The table below is written by `pnpm agents` (agents/run.mjs, see CONTRIBUTING.md): the real agents from npm, ' +
      'run headless through `compaction proxy` against a scripted loopback provider that makes them read one large ' +
      "file per turn and refuses requests over its limit with the provider's own overflow error.",
  );
  log(`wrote the results into ${docsPage}`);
}
