import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { type JSONObject, type Message, repairHistory } from '@compaction/core';
import { claudeCodeToMessages } from '@compaction/formats';
import { miniSweAgentToMessages } from './mini-swe-agent-messages.js';
import { openAIChatToMessages } from './openai-chat-messages.js';
import type { Transcript, TranscriptSource } from './transcript.js';
import { transcriptsDirectory } from './transcripts-directory.js';

/** Options of {@link loadTranscripts}. */
export interface LoadTranscriptsOptions {
  /** The folder; defaults to {@link transcriptsDirectory}. */
  directory?: string;
  /** Only these formats. */
  sources?: readonly TranscriptSource[];
}

/** Coding-agent formats (file paths and commands), as opposed to customer-service conversations. */
export const codingSources: readonly TranscriptSource[] = [
  'mini-swe-agent',
  'swe-agent',
  'claude-code',
  'openhands',
];

/**
 * Reads every shared real transcript into core messages, repairing what a recorded run left unfinished
 * (the repairs are listed on each transcript). Returns an empty list when there is no transcripts folder.
 */
export function loadTranscripts(options: LoadTranscriptsOptions = {}): Transcript[] {
  const directory = options.directory ?? transcriptsDirectory();
  if (directory === undefined) return [];
  const wanted = new Set(
    options.sources ?? (['mini-swe-agent', 'swe-agent', 'tau-bench', 'claude-code', 'openhands'] as const),
  );
  const transcripts: Transcript[] = [];
  const add = (
    source: TranscriptSource,
    path: string,
    name: string,
    messages: Message[],
    details?: JSONObject,
    assistantTimes?: readonly (number | undefined)[],
  ) => {
    const { messages: repaired, repairs } = repairHistory(messages);
    let answered = 0;
    const callTimes = assistantTimes?.length
      ? repaired.map((message) => (message.role === 'assistant' ? assistantTimes[answered++] : undefined))
      : undefined;
    transcripts.push({
      name: `${source}/${name}`,
      source,
      path,
      messages: repaired,
      repairs,
      ...(details ? { details } : {}),
      ...(callTimes ? { callTimes } : {}),
    });
  };
  const files = (folder: string, ending: string) =>
    listFiles(join(directory, folder)).filter((path) => path.endsWith(ending));

  if (wanted.has('mini-swe-agent')) {
    for (const path of files('mini-swe-agent', '.traj.json')) {
      const data = readJson(path) as { messages: Parameters<typeof miniSweAgentToMessages>[0] };
      const messages = miniSweAgentToMessages(data.messages);
      add(
        'mini-swe-agent',
        path,
        basename(path, '.traj.json'),
        messages,
        undefined,
        responseTimes(data.messages),
      );
    }
  }
  if (wanted.has('swe-agent')) {
    for (const path of files('swe-agent', '.traj')) {
      const data = readJson(path) as { history: Parameters<typeof openAIChatToMessages>[0] };
      add('swe-agent', path, basename(path, '.traj'), openAIChatToMessages(data.history));
    }
  }
  if (wanted.has('tau-bench')) {
    for (const path of files('tau-bench', '.json')) {
      const entries = readJson(path) as Array<{
        task_id: number;
        trial: number;
        reward: number;
        info: { task: { instruction?: string; actions?: JSONObject[] } };
        traj: Parameters<typeof openAIChatToMessages>[0];
      }>;
      for (const entry of entries) {
        add(
          'tau-bench',
          path,
          `task-${entry.task_id}-trial-${entry.trial}`,
          openAIChatToMessages(entry.traj),
          {
            reward: entry.reward,
            expectedActions: entry.info.task.actions ?? [],
            ...(entry.info.task.instruction === undefined
              ? {}
              : { instruction: entry.info.task.instruction }),
          },
        );
      }
    }
  }
  if (wanted.has('claude-code')) {
    for (const path of files('claude-code', '.jsonl')) {
      const name = relative(join(directory, 'claude-code'), path).replace(/\.jsonl$/, '');
      add('claude-code', path, name, claudeCodeToMessages(readFileSync(path, 'utf8')));
    }
  }
  if (wanted.has('openhands')) {
    for (const path of files('openhands', '.json')) {
      add(
        'openhands',
        path,
        basename(path, '.json'),
        openAIChatToMessages(readJson(path) as Parameters<typeof openAIChatToMessages>[0]),
      );
    }
  }
  return transcripts.sort((left, right) => left.name.localeCompare(right.name));
}

/** When each assistant entry's response was created (OpenAI-style `extra.response.created`, in seconds), in ms. */
function responseTimes(entries: readonly { role: string; extra?: unknown }[]): (number | undefined)[] {
  return entries
    .filter((entry) => entry.role === 'assistant')
    .map((entry) => {
      const created = (entry.extra as { response?: { created?: unknown } } | undefined)?.response?.created;
      return typeof created === 'number' ? created * 1000 : undefined;
    });
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** Files below a folder, recursively, sorted; none when the folder is missing. */
function listFiles(folder: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return [];
  }
  return entries.sort().flatMap((entry) => {
    const path = join(folder, entry);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}
