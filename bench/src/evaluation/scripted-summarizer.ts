import type { Provider } from '@compaction/core';
import { defaultSummarySections } from '@compaction/strategy-summarization';
import { createMockProvider } from '@compaction/testing';

/**
 * The fixed answer of the scripted summarizer: every section the summarization strategy requires, and no fact
 * from the conversation. Whatever the summarizing policies retain therefore comes from what they keep
 * verbatim and from what they record without the model (such as the artifact trail), never from the model.
 */
export const scriptedSummary = defaultSummarySections
  .map((section) => `## ${section}\nRecorded by a scripted summarizer: no detail of the conversation.`)
  .join('\n\n');

/**
 * A deterministic summarizer: answers every request with {@link scriptedSummary}. Each call goes to a fresh
 * one-answer mock provider, so there is no limit on the number of calls. It reports no usage, so the
 * simulation's metered provider estimates the tokens of each call.
 */
export function createScriptedSummarizer(): Provider {
  const answering = () =>
    createMockProvider({
      name: 'scripted-summarizer',
      modelId: 'scripted-summarizer',
      responses: [scriptedSummary],
    });
  const provider = answering();
  return { ...provider, generate: (request) => answering().generate(request) };
}
