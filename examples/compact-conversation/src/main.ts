import { readFileSync } from 'node:fs';
import { assertValidHistory, createCompactor, type Message } from '@compaction/core';
import { keepRecentTurns } from './keep-recent-turns.js';
import { formatReport } from './report.js';

// The bundled conversation: a coding agent's session in core's message format.
const messages: unknown = JSON.parse(readFileSync(new URL('../conversation.json', import.meta.url), 'utf8'));
assertValidHistory(messages);

const compactor = createCompactor({
  strategy: keepRecentTurns(),
  budget: { contextWindow: 16_000, reservedOutputTokens: 2_000, trigger: 0.8, target: 0.5 },
});

const check = compactor.check(messages);
console.log(
  `The conversation holds ${messages.length} messages, ${check.tokens} tokens: ` +
    `${Math.round(check.utilization * 100)}% of the ${check.limit}-token limit (${check.reason}).`,
);
const result = await compactor.prepare(messages);
if (!result.compacted || result.event === undefined) {
  console.log(`Nothing to compact (${result.skipped ?? 'no change'}).`);
} else {
  console.log(formatReport(messages, result.messages, result.event, compactor.counter));
  const last = result.messages.at(-1) as Message;
  console.log(
    `\nThe newest request is still there: "${last.content[0]?.type === 'text' ? last.content[0].text : ''}"`,
  );
}
