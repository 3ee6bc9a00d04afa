import type { Message, ToolResultPart } from '@compaction/core';
import { recallHandlesIn } from '@compaction/strategy-kit';

/** What a scripted model does next: call one tool, or answer and stop. */
export type RecallScriptStep =
  | { kind: 'call'; toolName: string; input: { path: string } | { handle: string } }
  | { kind: 'answer'; text: string };

/**
 * The next step of a model scripted to recall: it reads `paths` one per step with `read_file`; then, if a
 * tool result it sees names a handle in a `recall "<handle>"` placeholder and it has not recalled yet, it
 * calls `recall` with the first such handle; then it answers with the recalled text's length and first line.
 * Without a placeholder to follow, it answers that nothing was cleared. `messages` is the request's
 * conversation, converted to core messages.
 */
export function nextRecallStep(messages: readonly Message[], paths: readonly string[]): RecallScriptStep {
  const results = messages.flatMap((message) => (message.role === 'tool' ? message.content : []));
  const read = results.filter((part) => part.toolName === 'read_file').length;
  const next = paths[read];
  if (next !== undefined) return { kind: 'call', toolName: 'read_file', input: { path: next } };
  const recalled = results.find((part) => part.toolName === 'recall');
  if (recalled !== undefined) {
    const text = outputText(recalled);
    return {
      kind: 'answer',
      text: `Recalled ${text.length} characters; it starts "${text.split('\n')[0]}".`,
    };
  }
  const handle = results.flatMap((part) => recallHandlesIn(outputText(part)))[0];
  if (handle !== undefined) return { kind: 'call', toolName: 'recall', input: { handle } };
  return { kind: 'answer', text: 'Nothing was cleared.' };
}

/** The text of a tool result's output. */
function outputText(part: ToolResultPart): string {
  if (typeof part.output === 'string') return part.output;
  return part.output.flatMap((content) => (content.type === 'text' ? [content.text] : [])).join('');
}
