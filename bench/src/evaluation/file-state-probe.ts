import { type Message, textOf, toolCallsOf } from '@compaction/core';
import { contextText } from './context-text.js';
import { type FileAction, fileActionsOfCall } from './file-actions.js';
import { leadingText } from './probe.js';

/** The last state the agent saw of a file: what it last did to it, and for a read, a line only that read shows. */
export interface FileStateProbe {
  path: string;
  state: FileAction;
  /** For a read: a line of its output found nowhere else in the conversation (normalized, at most 200 characters). */
  line?: string;
}

/** How many files' last states a context still tells. */
export interface FileStateRetention {
  total: number;
  kept: number;
  lost: FileStateProbe[];
}

/** Shortest line of a read's output that makes its probe: shorter ones (`}`, `return x`) are not telling. */
export const minimumLineCharacters = 20;

/** Longest part of a line that makes its probe. */
export const lineCharacters = 200;

/** Words that say, on the line that names a file, that it was written. */
const writtenWords = /\b(created|modified|edited|changed|updated|written|wrote)\b/i;
/** Words that say it was deleted. */
const deletedWords = /\b(deleted|removed)\b/i;

/**
 * The last state of every file the agent read or changed in `messages`, in order of first appearance: the
 * last action of any tool call on it; for a read, the longest line of the read's output (at least
 * {@link minimumLineCharacters} characters) that no system or user message contains (those hold the task,
 * which every policy keeps), so that finding it in a context means the file's content is there. A file last read
 * by a call that read several files, or whose output has no such line, has no probe.
 */
export function fileStateProbes(messages: readonly Message[]): FileStateProbe[] {
  const head = contextText(
    messages.filter((message) => message.role === 'system' || message.role === 'user'),
  );
  const outputs = toolOutputs(messages);
  const states = new Map<string, FileStateProbe | undefined>();
  for (const message of messages) {
    for (const call of toolCallsOf(message)) {
      const facts = fileActionsOfCall(call);
      const readPaths = new Set(facts.filter((fact) => fact.action === 'read').map((fact) => fact.path));
      for (const fact of facts) {
        if (fact.action !== 'read') {
          states.set(fact.path, { path: fact.path, state: fact.action });
          continue;
        }
        const output = outputs.get(call.toolCallId);
        const line = readPaths.size === 1 && output !== undefined ? distinctiveLine(output, head) : undefined;
        states.set(fact.path, line === undefined ? undefined : { path: fact.path, state: 'read', line });
      }
    }
  }
  return [...states.values()].filter((probe): probe is FileStateProbe => probe !== undefined);
}

/**
 * Which last states a context still tells. A read: its distinctive line is present. A written file (edited
 * or created): a tool call in the context writes it, or a line of text names it with a word saying it was
 * written (`Modified: a.py, b.py` in an artifact trail, `I edited a.py` in a summary). A deleted file: the
 * same with a deleting call or a word saying it was deleted.
 */
export function measureFileStateRetention(
  probes: readonly FileStateProbe[],
  context: readonly Message[],
): FileStateRetention {
  const text = contextText(context);
  const lines = context.flatMap((message) => textOf(message).split('\n'));
  const calls = context.flatMap((message) => toolCallsOf(message).flatMap(fileActionsOfCall));
  const told = (probe: FileStateProbe) => {
    if (probe.state === 'read') return probe.line !== undefined && text.includes(probe.line);
    const deleted = probe.state === 'deleted';
    const words = deleted ? deletedWords : writtenWords;
    return (
      calls.some(
        (fact) =>
          fact.path === probe.path && (fact.action === 'deleted') === deleted && fact.action !== 'read',
      ) || lines.some((line) => line.includes(probe.path) && words.test(line))
    );
  };
  const lost = probes.filter((probe) => !told(probe));
  return { total: probes.length, kept: probes.length - lost.length, lost };
}

function toolOutputs(messages: readonly Message[]): Map<string, string> {
  const outputs = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const result of message.content) {
      const output =
        typeof result.output === 'string'
          ? result.output
          : result.output.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      outputs.set(result.toolCallId, output);
    }
  }
  return outputs;
}

function distinctiveLine(output: string, head: string): string | undefined {
  return (
    output
      .split('\n')
      .map((line) => leadingText(line, lineCharacters))
      // Lines that open with a tag are the harness's wrapping (`<returncode>0</returncode>`), not the file.
      .filter(
        (line) => line.length >= minimumLineCharacters && /[A-Za-z]{3}/.test(line) && !/^<\/?\w+>/.test(line),
      )
      .sort((left, right) => right.length - left.length)
      .find((line) => !head.includes(line))
  );
}
