import {
  type AssistantMessage,
  assertValidHistory,
  BudgetUnreachableError,
  type CompactionOutput,
  type CompactionStrategy,
  groupTurns,
  isPinned,
  type Message,
  type TokenCounter,
  type ToolCallPart,
  type ToolMessage,
  validateOptions,
  withCompactionMetadata,
} from '@compaction/core';
import { clearInput, maskResult, resultCharacters, truncateResult, wasShortened } from './shorten-result.js';
import {
  type ToolResultTruncationOptions,
  toolResultTruncationOptionsSchema,
} from './tool-result-truncation-options.js';

const strategyName = 'tool-result-truncation';

/** Tokens a truncation note adds, left out of the room kept for the text itself. */
const noteAllowance = 16;

type ValidatedOptions = Required<ToolResultTruncationOptions>;

/**
 * Creates the `tool-result-truncation` strategy (observation masking): leaves the newest `keepRecent` tool
 * results alone and shortens older ones, oldest first, until the history is at or under the target. The tool
 * calls stay, so the model still sees what it did. Options are validated here, so direct use is checked like
 * a config. Throws `InvalidOptionsError` for bad options.
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
    async compact({ messages, counter, budget, round }): Promise<CompactionOutput> {
      assertValidHistory(messages);
      const tokensBefore = counter.estimate(messages);
      if (tokensBefore <= budget.target) {
        return { messages: [...messages], details: { shortenedResults: 0, clearedInputs: 0 } };
      }
      const marks = { kind: 'modified', round, strategy: strategyName } as const;
      const recent = newestResults(messages, validated.keepRecent);
      const result = [...messages];
      let tokens = tokensBefore;
      let shortenedResults = 0;
      let clearedInputs = 0;
      // Oldest first, one turn at a time, stopping as soon as the target is met.
      for (const turn of groupTurns(messages)) {
        if (tokens <= budget.target || turn.start >= recent.messageIndex + 1) break;
        if (turn.end - turn.start < 2) continue;
        const changedCalls = new Set<string>();
        for (let index = turn.start + 1; index < turn.end; index++) {
          const message = messages[index] as ToolMessage;
          if (isPinned(message)) continue;
          const oldParts = index < recent.messageIndex ? message.content.length : recent.partIndex;
          const shortened = shortenMessage(message, oldParts, counter, validated, exempt);
          if (shortened === undefined) continue;
          for (const id of shortened.toolCallIds) changedCalls.add(id);
          shortenedResults += shortened.toolCallIds.length;
          const replacement = withCompactionMetadata<ToolMessage>(shortened.message, marks);
          tokens += counter.countMessage(replacement) - counter.countMessage(message);
          result[index] = replacement;
        }
        const call = messages[turn.start] as AssistantMessage;
        if (validated.clearToolInputs && changedCalls.size > 0 && !isPinned(call)) {
          const cleared = clearInputs(call, changedCalls, counter, validated.maxResultTokens);
          if (cleared !== undefined) {
            clearedInputs += cleared.count;
            const replacement = withCompactionMetadata<AssistantMessage>(cleared.message, marks);
            tokens += counter.countMessage(replacement) - counter.countMessage(call);
            result[turn.start] = replacement;
          }
        }
      }
      if (tokens > budget.limit) {
        throw new BudgetUnreachableError({
          tokens,
          limit: budget.limit,
          reason: `every tool result but the newest ${validated.keepRecent} is already shortened`,
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

/** Shortens the old results (the first `oldParts`) of one tool message that are over the cap. */
function shortenMessage(
  message: ToolMessage,
  oldParts: number,
  counter: TokenCounter,
  options: ValidatedOptions,
  exempt: ReadonlySet<string>,
): { message: ToolMessage; toolCallIds: string[] } | undefined {
  if (oldParts <= 0) return undefined;
  const messageTokens = counter.countMessage(message);
  let messageCharacters = 0;
  for (const part of message.content) messageCharacters += resultCharacters(part);
  if (messageCharacters === 0) return undefined;
  let content: ToolMessage['content'] | undefined;
  const toolCallIds: string[] = [];
  for (let partIndex = 0; partIndex < oldParts; partIndex++) {
    const part = message.content[partIndex]!;
    if (exempt.has(part.toolName) || wasShortened(part)) continue;
    // The counter measures whole messages (memoized); a result's share follows its share of the text.
    const characters = resultCharacters(part);
    const tokens = (messageTokens * characters) / messageCharacters;
    if (tokens <= options.maxResultTokens) continue;
    const keepCharacters = Math.max(0, options.maxResultTokens - noteAllowance) * (characters / tokens);
    content ??= [...message.content];
    content[partIndex] =
      options.mode === 'mask' ? maskResult(part, tokens) : truncateResult(part, Math.floor(keepCharacters));
    toolCallIds.push(part.toolCallId);
  }
  return content === undefined ? undefined : { message: { ...message, content }, toolCallIds };
}

/** Replaces the inputs of the given calls that are over the cap with a note. */
function clearInputs(
  message: AssistantMessage,
  toolCallIds: ReadonlySet<string>,
  counter: TokenCounter,
  maxTokens: number,
): { message: AssistantMessage; count: number } | undefined {
  const inputs = message.content.map((part) =>
    part.type === 'tool-call' && toolCallIds.has(part.toolCallId) && !wasShortened(part)
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
    return clearInput(part as ToolCallPart, size);
  });
  return count === 0 ? undefined : { message: { ...message, content }, count };
}
