import {
  type AssistantMessage,
  assertValidHistory,
  BudgetUnreachableError,
  type CompactionOutput,
  type CompactionStrategy,
  isPinned,
  type Message,
  type TokenCounter,
  type ToolCallPart,
  type ToolMessage,
  validateOptions,
  withCompactionMetadata,
} from '@compaction/core';
import {
  archivedChanges,
  isShortenedPart,
  truncationNoteCost,
  wholeTurnSlack,
} from '@compaction/strategy-kit';
import { clearInput, strategyName } from './shorten-result.js';
import { shortenToolMessage, type Tally } from './shorten-tool-message.js';
import {
  type ToolResultTruncationOptions,
  toolResultTruncationOptionsSchema,
} from './tool-result-truncation-options.js';

type ValidatedOptions = Required<ToolResultTruncationOptions>;

/**
 * Creates the `tool-result-truncation` strategy (observation masking): leaves the newest `keepRecent` tool
 * results alone and shortens older ones, oldest first, until the history is at or under the target. The tool
 * calls stay, so the model still sees what it did. The result that crosses the target keeps as much of its
 * start and end as the target allows when shortening it fully would leave the history more than
 * `wholeTurnSlack` below the target (one huge result never takes the whole budget's worth with it). Options
 * are validated here, so direct use is checked like a config. Throws `InvalidOptionsError` for bad options,
 * and `BudgetUnreachableError` (with the target and the best reached) when even every old result shortened
 * leaves the history over the limit.
 */
export function createToolResultTruncation(options: ToolResultTruncationOptions = {}): CompactionStrategy {
  const validated = validateOptions<ValidatedOptions>(
    toolResultTruncationOptionsSchema,
    options,
    `strategy "${strategyName}"`,
  );
  const exempt = new Set(validated.exemptTools);
  return {
    specificationVersion: 'v1',
    name: strategyName,
    async compact({ messages, counter, budget, round, archive = false }): Promise<CompactionOutput> {
      assertValidHistory(messages);
      // Each message's count, kept for the walk below (the counter memoizes too, but a lookup per message
      // is a measurable share of a run that masks a thousand results).
      const counts = new Float64Array(messages.length);
      let tokensBefore = 0;
      for (let index = 0; index < messages.length; index++) {
        counts[index] = counter.countMessage(messages[index]!);
        tokensBefore += counts[index]!;
      }
      if (tokensBefore <= budget.target) {
        return { messages: [...messages], details: { shortenedResults: 0, clearedInputs: 0 } };
      }
      const marks = { kind: 'modified', round, strategy: strategyName } as const;
      const recent = newestResults(messages, validated.keepRecent);
      const result = [...messages];
      let tokens = tokensBefore;
      const tally: Tally = { shortenedResults: 0 };
      const slack = wholeTurnSlack(budget.target);
      let clearedInputs = 0;
      const noteTokens = truncationNoteCost(counter, archive);
      // Oldest first, one turn at a time, stopping as soon as the target is met. A turn is an assistant
      // message and the tool messages after it: in a valid history only tool calls are answered there, so
      // a flat walk finds the turns without grouping them first.
      let index = 0;
      while (index < messages.length && tokens > budget.target && index <= recent.messageIndex) {
        const start = index++;
        if (messages[start]!.role !== 'assistant') continue;
        tally.changedCalls = validated.clearToolInputs ? new Set() : undefined;
        for (; index < messages.length && messages[index]!.role === 'tool'; index++) {
          const message = messages[index] as ToolMessage;
          const oldParts = oldResultsOf(message, index, recent);
          if (oldParts <= 0 || isPinned(message)) continue;
          const messageTokens = counts[index]!;
          const replacement = shortenToolMessage(message, {
            oldParts,
            messageTokens,
            options: validated,
            exempt,
            tally,
            excess: tokens - budget.target,
            slack,
            archive,
            noteTokens,
            count: (content) => {
              const candidate = withCompactionMetadata(message, marks, content);
              return { message: candidate, tokens: counter.countMessage(candidate) };
            },
          });
          if (replacement === undefined) continue;
          tokens += replacement.tokens - messageTokens;
          result[index] = replacement.message;
        }
        const call = messages[start] as AssistantMessage;
        if (tally.changedCalls !== undefined && tally.changedCalls.size > 0 && !isPinned(call)) {
          const cleared = clearInputs(call, tally.changedCalls, counter, validated.maxResultTokens, archive);
          if (cleared !== undefined) {
            clearedInputs += cleared.count;
            const replacement = withCompactionMetadata(call, marks, cleared.content);
            tokens += counter.countMessage(replacement) - counts[start]!;
            result[start] = replacement;
          }
        }
      }
      const shortenedResults = tally.shortenedResults;
      if (tokens > budget.limit) {
        throw new BudgetUnreachableError({
          target: budget.target,
          best: tokens,
          limit: budget.limit,
          reason: `every tool result but the newest ${validated.keepRecent} is shortened`,
        });
      }
      if (tokensBefore - tokens < validated.minTokensSaved && tokensBefore <= budget.limit) {
        return {
          messages: [...messages],
          details: { shortenedResults: 0, clearedInputs: 0, skipped: 'below minTokensSaved' },
        };
      }
      return {
        messages: result,
        ...(archive ? { archived: archivedChanges(messages, result) } : {}),
        details: { shortenedResults, clearedInputs, tokensBefore, tokensAfter: tokens },
      };
    },
  };
}

/**
 * Where the newest `keep` results begin: results in messages before `messageIndex`, and the first
 * `partIndex` results of that message, are old.
 */
function newestResults(
  messages: readonly Message[],
  keep: number,
): { messageIndex: number; partIndex: number } {
  let remaining = keep;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'tool') continue;
    if (remaining < message.content.length) {
      return { messageIndex: index, partIndex: message.content.length - remaining };
    }
    remaining -= message.content.length;
  }
  return { messageIndex: -1, partIndex: 0 };
}

/** How many results of the tool message at `index` are old (the first ones); the rest are among the newest. */
function oldResultsOf(
  message: ToolMessage,
  index: number,
  recent: { messageIndex: number; partIndex: number },
): number {
  if (index < recent.messageIndex) return message.content.length;
  return index === recent.messageIndex ? recent.partIndex : 0;
}

/** Replaces the inputs of the given calls that are over the cap with a note (naming its handle with `archive`). */
function clearInputs(
  message: AssistantMessage,
  toolCallIds: ReadonlySet<string>,
  counter: TokenCounter,
  maxTokens: number,
  archive: boolean,
): { content: AssistantMessage['content']; count: number } | undefined {
  const inputs = message.content.map((part) =>
    part.type === 'tool-call' && toolCallIds.has(part.toolCallId) && !isShortenedPart(part)
      ? JSON.stringify(part.input).length
      : 0,
  );
  let characters = 0;
  for (const part of message.content) {
    if (part.type === 'text' || part.type === 'reasoning') characters += part.text.length;
  }
  for (const size of inputs) characters += size;
  if (characters === 0) return undefined;
  const tokensPerCharacter = counter.countMessage(message) / characters;
  let count = 0;
  const content = message.content.map((part, partIndex) => {
    const size = inputs[partIndex]!;
    if (size === 0 || size * tokensPerCharacter <= maxTokens) return part;
    count++;
    return clearInput(part as ToolCallPart, size, archive);
  });
  return count === 0 ? undefined : { content, count };
}
