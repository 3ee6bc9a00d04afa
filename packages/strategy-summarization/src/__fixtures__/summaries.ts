import type { GenerateRequest, Message } from '@compaction/core';
import { createMockProvider, type MockProvider, type MockProviderSettings } from '@compaction/testing';
import { defaultSummarySections } from '../summary-template.js';

/** A summary with every default section, as a good summarizer would write it. */
export function wellFormedSummary(label = 'progress'): string {
  return defaultSummarySections
    .map((section) => `## ${section}\n${label} for ${section.toLowerCase()}.`)
    .join('\n');
}

/** A mock provider that answers every request with a well-formed summary. */
export function summarizingProvider(settings: Omit<MockProviderSettings, 'responses'> = {}): MockProvider {
  return createMockProvider({
    ...settings,
    responses: Array.from({ length: 20_000 }, () => () => wellFormedSummary()),
  });
}

/** The user prompt text of a summarizer request. */
export function promptOf(request: GenerateRequest): string {
  return request.messages
    .filter((message) => message.role === 'user')
    .flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')))
    .join('\n');
}

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

/**
 * A coding-agent history: a system prompt, a task, then `steps` tool-calling turns that read, edit and run
 * things (each with a sizeable output), and a final user request.
 */
export function codingHistory(steps: number, finalRequest = 'Now also update the changelog.'): Message[] {
  const messages: Message[] = [
    { role: 'system', content: [{ type: 'text', text: 'You are a careful coding agent.' }] },
    user('Fix the failing date parser in src/dates/parse.ts and make the tests pass.'),
  ];
  for (let step = 0; step < steps; step++) {
    const id = `call_${step}`;
    const kind = step % 3;
    const call =
      kind === 0
        ? { toolName: 'read_file', input: { path: `src/module_${step}.ts` } }
        : kind === 1
          ? { toolName: 'bash', input: { command: `npm test -- --filter case_${step}\necho done` } }
          : { toolName: 'edit_file', input: { file_path: `src/edit_${step}.ts`, old: 'a', new: 'b' } };
    const output =
      kind === 1
        ? `${'test output line\n'.repeat(40)}Exit code: ${step % 2}`
        : `${'export const value = 1;\n'.repeat(40)}`;
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Step ${step}: working on it.` },
        { type: 'tool-call', toolCallId: id, ...call },
      ],
    });
    messages.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: call.toolName,
          output,
          ...(kind === 1 && step % 2 === 1 ? { isError: true } : {}),
        },
      ],
    });
  }
  messages.push(user(finalRequest));
  return messages;
}
