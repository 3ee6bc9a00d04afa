import { fileName } from './scripted-task.mjs';

/** The name the agents load `compaction mcp` under: its tools reach the model as `mcp__compaction__search`. */
export const mcpServerName = 'compaction';

/**
 * The line of the first file the scripted model searches for once a compaction removed that file's content:
 * words a model would remember of a file it read (before the line's quotes, which end a phrase).
 */
export const searchedLine = `files/${fileName(1)}:7: export const value7 = computeValue(49,`;

/** The id of a call of this task, which the requests after it carry: `search-1`, `recall-1`, `recall-2`. */
const callId = (tool, number = 1) => `${tool}-${number}`;

/** The header of an answer of `recall` that holds part of an item, and the note that says where it was cut. */
const partHeader = /^\[recall "[^"]+" \(.*\): lines \d+-\d+ of \d+\]\n/;
const cutNote = /\n\[cut: lines \d+-\d+ shown; call recall with fromLine (\d+) for more\]/;

/**
 * The item's text in order from the answers of `recall`, each whole or a part: its header off, and a part cut
 * at its cut note (after which an agent may have added text of its own to the answer).
 */
export function joinedParts(answers) {
  return answers
    .map((answer) => {
      const part = answer.replace(partHeader, '');
      const cut = cutNote.exec(part);
      return cut === null ? part : part.slice(0, cut.index);
    })
    .join('\n');
}

/** A tool's name among those the request offers: `mcp__compaction__search` for Claude Code, Codex's own form. */
function offeredTool(tools, tool) {
  return tools.find(
    ({ name }) => typeof name === 'string' && name.includes(mcpServerName) && name.endsWith(tool),
  )?.name;
}

/** The text of the tool result answering call `id` in the request's items, per format; undefined when none. */
export function toolResultText(format, items, id) {
  for (const item of items) {
    if (format === 'anthropic') {
      if (!Array.isArray(item?.content)) continue;
      const result = item.content.find(
        (block) => block.type === 'tool_result' && String(block.tool_use_id).endsWith(id),
      );
      if (result !== undefined) return contentText(result.content);
    } else if (item?.type === 'function_call_output' && String(item.call_id).endsWith(id)) {
      return contentText(item.output);
    }
  }
  return undefined;
}

function contentText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part === 'string' ? part : (part.text ?? ''))).join('');
}

/**
 * The scripted model's steps of the recall task, as the provider's `extraStep`: the agent reads the files as
 * in the main task; once a request the provider receives holds a placeholder (the proxy compacted the first
 * files away), the model calls the MCP `search` tool for a line of the first file, then `recall` with the
 * handle of the first tool output the search answers, then goes on reading. What the agent sends back for the
 * recall is checked by {@link checkRecall}.
 */
export function createRecallSteps() {
  const state = {
    offered: false,
    searched: false,
    recalled: false,
    handle: undefined,
    searchAnswer: undefined,
    recalls: 0,
  };
  const step = ({ format, body, items, turn, tools }) => {
    state.offered ||= offeredTool(tools, 'search') !== undefined;
    if (turn.kind !== 'tool-result') return undefined;
    if (state.recalled) return nextPart(format, items, state, offeredTool(tools, 'recall'));
    const search = offeredTool(tools, 'search');
    const recall = offeredTool(tools, 'recall');
    if (search === undefined || recall === undefined) return undefined;
    if (state.searched) {
      const answer = toolResultText(format, items, callId('search'));
      if (answer === undefined) return undefined;
      state.searchAnswer = answer;
      // The first hit that is a tool's output (the file as read), else the first hit.
      const hits = [...answer.matchAll(/^\d+\. recall "([A-Za-z0-9_-]+)" \(([^;]*);/gm)];
      const chosen = hits.find((hit) => hit[2].endsWith(' output')) ?? hits[0];
      if (chosen === undefined) return undefined;
      state.recalled = true;
      state.recalls = 1;
      state.handle = chosen[1];
      return {
        text: `Recalling ${fileName(1)} as archived.`,
        call: { id: callId('recall'), name: recall, input: { handle: chosen[1] } },
      };
    }
    if (!/recall \\?"[A-Za-z0-9_-]+\\?"/.test(JSON.stringify(body))) return undefined;
    state.searched = true;
    return {
      text: `Searching the archive for ${fileName(1)}.`,
      call: { id: callId('search'), name: search, input: { query: `"${searchedLine}"` } },
    };
  };
  return { step, state };
}

/** The call for the next part of a long item, when the last answer of `recall` says where it was cut. */
function nextPart(format, items, state, recall) {
  const answer = toolResultText(format, items, callId('recall', state.recalls));
  const fromLine = answer === undefined ? undefined : cutNote.exec(answer)?.[1];
  if (fromLine === undefined || recall === undefined) return undefined;
  state.recalls++;
  return {
    text: `Recalling ${fileName(1)} from line ${fromLine}.`,
    call: {
      id: callId('recall', state.recalls),
      name: recall,
      input: { handle: state.handle, fromLine: Number(fromLine) },
    },
  };
}

/**
 * What the recall task came to, from the requests the agent sent: the text it sent back for the `recall` calls
 * against the item the proxy archived under the handle (in the store at `storePath`), and against the original
 * tool result of its read of the first file (the first result that holds that file's first line). Agents add
 * text of their own to a tool's answer (Claude Code its reminders), so each is looked for within it.
 */
export async function checkRecall(format, sent, state, storePath) {
  const itemsOf = (body) => (format === 'openai-responses' ? body?.input : body?.messages) ?? [];
  const bodies = sent.map((record) => record.body).filter((body) => body !== undefined);
  const answers = [];
  for (let number = 1; number <= state.recalls; number++) {
    const answer = bodies
      .map((body) => toolResultText(format, itemsOf(body), callId('recall', number)))
      .find((text) => text !== undefined);
    if (answer !== undefined) answers.push(answer);
  }
  const recalled = answers.length === state.recalls && answers.length > 0 ? joinedParts(answers) : undefined;
  const firstLine = `files/${fileName(1)}:1: `;
  let original;
  for (const body of bodies) {
    for (const item of itemsOf(body)) {
      const text = originalResultText(format, item);
      if (text?.includes(firstLine) && !text.includes('recall "')) {
        original = text;
        break;
      }
    }
    if (original !== undefined) break;
  }
  const archived = state.handle === undefined ? undefined : await archivedText(storePath, state.handle);
  return {
    offered: state.offered,
    searched: state.searched,
    archivedCharacters: archived?.length,
    holdsArchived: archived !== undefined && recalled?.includes(archived) === true,
    searchAnswer: state.searchAnswer,
    handle: state.handle,
    calls: state.recalls,
    recalledCharacters: recalled?.length,
    originalCharacters: original?.length,
    // The item is the tool's output itself, or the turns removed around it, which hold it as it was sent.
    exact: recalled !== undefined && recalled === original,
    holdsOriginal: original !== undefined && recalled?.includes(original) === true,
  };
}

/** The text archived under `handle` in any session of the SQLite store at `path`. */
async function archivedText(path, handle) {
  const { createSqliteCompactionStore } = await import('../packages/store-sqlite/dist/index.js');
  const store = createSqliteCompactionStore({ path });
  try {
    for (const session of await store.sessions()) {
      const records = await store.list(session);
      const item = records.flatMap((record) => record.archived ?? []).find((each) => each.handle === handle);
      if (item !== undefined) return item.text;
    }
    return undefined;
  } finally {
    await store.close();
  }
}

/** The text of an item when it is a tool result (of any call), per format. */
function originalResultText(format, item) {
  if (format === 'anthropic') {
    if (!Array.isArray(item?.content)) return undefined;
    const result = item.content.find((block) => block.type === 'tool_result');
    return result === undefined ? undefined : contentText(result.content);
  }
  return item?.type === 'function_call_output' ? contentText(item.output) : undefined;
}
