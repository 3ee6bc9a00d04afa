// The values of the names the documentation's code blocks use without defining them (docs/snippet-globals.d.ts,
// and the `declare`d names of single blocks), for `check-doc-snippets.mjs --run`: what a reader already has,
// here made offline. It runs before each block, in an application that installed the packages by name.
import { readFileSync } from 'node:fs';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { MockLanguageModelV3 } from 'ai/test';

/** The bundled coding conversation, in core messages. */
globalThis.history = JSON.parse(readFileSync(new URL('./conversation.json', import.meta.url), 'utf8'));
globalThis.messages = globalThis.history;
globalThis.strategy = createSlidingWindow();
globalThis.config = {
  strategy: ['tool-result-truncation', 'sliding-window'],
  budget: { contextWindow: 200_000 },
};
globalThis.callModel = async () => ({ usage: { input_tokens: 1_000 } });

/** A strategy of the reader's own (custom-strategy.md declares it): the sliding window under another name. */
globalThis.keepRecentTurns = (options) => ({ ...createSlidingWindow(), name: 'keep-recent-turns', options });

/** An AI SDK model that answers every call with one text and reports its usage, as a provider's does. */
const mockModel = () =>
  new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'Done.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1_000, noCache: 1_000, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 2, text: 2, reasoning: 0 },
      },
      warnings: [],
    }),
  });
globalThis.model = mockModel();
globalThis.baseModel = mockModel();
globalThis.compactingModel = mockModel();
globalThis.conversation = [{ role: 'user', content: 'Fix the failing test in src/billing.' }];
globalThis.chat = { id: 'chat-1', messages: globalThis.conversation };
globalThis.tools = {};
