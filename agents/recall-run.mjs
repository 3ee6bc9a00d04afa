import { agentLaunchers } from './agent-launchers.mjs';
import { runAgent } from './run-agent.mjs';

/**
 * The recall task's settings per agent that loads MCP servers: a window the task outgrows after a few files, so
 * the proxy compacts the first files away, and files small enough that `recall` answers one whole (its answers
 * hold 20,000 characters).
 */
export const recallSettings = {
  'claude-code': { window: 50_000, fileCount: 14, fileBytes: 12_000, timeLimitMs: 10 * 60_000 },
  // Codex CLI starts the MCP server of its config.toml, which answers, but offers the model none of its tools
  // in `codex exec` (openai/codex#17904): its run says so, and is not run unless asked for.
  codex: { window: 20_000, fileCount: 12, fileBytes: 8_000, timeLimitMs: 8 * 60_000 },
};

/** The agents the recall task runs when none are named. */
export const defaultRecallAgents = ['claude-code'];

/**
 * Runs the recall task through the proxy for each of `agents` that loads MCP servers, and prints what came of
 * it; resolves true when every agent sent back the whole archived text and, within it, the file as it read it.
 */
export async function runRecallTask(agents) {
  const log = (line) => process.stderr.write(`agents: ${line}\n`);
  let allHeld = true;
  for (const agent of agents.filter((name) => recallSettings[name] !== undefined)) {
    const title = agentLaunchers[agent].title;
    const settings = { ...recallSettings[agent], title };
    const run = await runAgent({
      agent,
      settings,
      mode: 'proxy',
      providerLimit: settings.window,
      log,
      recall: true,
    });
    const { recall, status, ended } = run;
    const archived = status?.archive ?? { items: 0, bytes: 0 };
    const found = (holds) => (holds ? 'whole' : 'not whole');
    process.stdout.write(
      `recall task, ${title}: exit ${ended.code}${ended.timedOut ? ' (stopped)' : ''} in ${run.seconds.toFixed(0)} s; ` +
        `${run.sent.length} requests, ${status?.compactions ?? 0} compactions, ${archived.items} items ` +
        `(${archived.bytes} bytes) archived; ${recall.offered ? '' : 'no request offered the MCP tools; '}searched ${recall.searched}, recalled ${recall.handle ?? 'nothing'} ` +
        `in ${recall.calls} call${recall.calls === 1 ? '' : 's'}: ${recall.recalledCharacters ?? 0} characters sent ` +
        `back, holding the archived text (${recall.archivedCharacters ?? 0} characters) ${found(recall.holdsArchived)} ` +
        `and the file as the agent read it (${recall.originalCharacters ?? 0} characters) ` +
        `${recall.exact ? 'exactly' : found(recall.holdsOriginal)}\n`,
    );
    if (!recall.holdsArchived || !recall.holdsOriginal) {
      allHeld = false;
      log(`${title}: ${ended.output.slice(-2000).replaceAll('\n', ' | ')}`);
      log(`${title}: the search answered: ${(recall.searchAnswer ?? '').slice(0, 1200)}`);
    }
  }
  return allHeld;
}
