import type { JSONValue, Message } from '@compaction/core';
import { toolCallsOf } from '@compaction/core';

/** Characters of a command's first line that must survive (the `commandCharacters` default). */
export const checkedCommandCharacters = 200;

const pathKeys = new Set(['path', 'file_path', 'filePath', 'filename', 'file_name', 'notebook_path']);
const commandKeys = new Set(['command', 'cmd']);
const editorVerbs = new Set(['view', 'create', 'str_replace', 'insert', 'undo_edit']);

/**
 * The file paths and commands the tool calls of a span touched, read straight from the call inputs: the
 * reference a compacted history is checked against. Kept deliberately simple and separate from the
 * strategy's own extraction, so the check does not grade the strategy with its own code.
 */
export function artifactsOfSpan(messages: readonly Message[]): { paths: Set<string>; commands: Set<string> } {
  const paths = new Set<string>();
  const commands = new Set<string>();
  for (const message of messages) {
    for (const call of toolCallsOf(message)) {
      const input = call.input;
      if (typeof input !== 'object' || input === null || Array.isArray(input)) continue;
      for (const [key, value] of Object.entries(input)) {
        if (typeof value !== 'string' || value.trim() === '') continue;
        if (pathKeys.has(key) && !value.includes('\n')) paths.add(value.trim());
        if (commandKeys.has(key) && !editorVerbs.has(value.trim())) {
          const line = value
            .split('\n')
            .map((part) => part.trim())
            .find((part) => part.length > 0);
          if (line !== undefined) commands.add(line.slice(0, checkedCommandCharacters));
        }
      }
    }
  }
  return { paths, commands };
}

/** Everything a model would read in a history: texts, tool inputs (their string values) and tool outputs. */
export function visibleText(messages: readonly Message[]): string {
  const pieces: string[] = [];
  const addValue = (value: JSONValue | undefined): void => {
    if (typeof value === 'string') pieces.push(value);
    else if (Array.isArray(value)) value.forEach(addValue);
    else if (value !== null && typeof value === 'object')
      for (const item of Object.values(value)) addValue(item);
  };
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') pieces.push(part.text);
      else if (part.type === 'tool-call') addValue(part.input);
      else if (part.type === 'tool-result') {
        if (typeof part.output === 'string') pieces.push(part.output);
        else for (const item of part.output) if (item.type === 'text') pieces.push(item.text);
      }
    }
  }
  return pieces.join('\n');
}
