import {
  type CompactionOutput,
  type CompactionStrategy,
  latestUserMessageIndex,
  type Message,
  type Provider,
  type UserMessage,
  withCompactionMetadata,
} from '@compaction/core';
import { groupTurns } from '@compaction/strategy-kit';
import { contextText } from './context-text.js';

/** Settings of {@link createSummarizingCondenser}. */
export interface SummarizingCondenserSettings {
  /** The strategy's name in reports. */
  name: string;
  /** Writes the summaries. */
  provider: Provider;
  /**
   * Condense only when the history holds more than this many events (messages); the history is then cut
   * to about half of it. Without it, the condenser runs whenever the simulation's token trigger fires and
   * cuts the history to about half of its events.
   */
  maxEvents?: number;
  /** Events kept at the start (the system prompt and the task). */
  keepFirst: number;
  /** Characters of one event sent to the summarizer. */
  maxEventCharacters?: number;
}

/**
 * A reference policy emulating OpenHands' `LLMSummarizingCondenser` (defaults `max_size` 120 events,
 * `keep_first` 4): keep the first events, summarize the middle into one summary event, keep the newest
 * events so that the view holds half of `max_size` (`max_size // 2 - keep_first - 1` from the tail). A
 * message is one event. Two adjustments keep the result valid for a provider, as every policy here must:
 * the cuts move to turn boundaries (a tool call is never separated from its result), and the newest user
 * request is kept after the summary when it would have been summarized.
 */
export function createSummarizingCondenser(settings: SummarizingCondenserSettings): CompactionStrategy {
  const { name, provider, maxEvents, keepFirst } = settings;
  const maxEventCharacters = settings.maxEventCharacters ?? 10_000;
  return {
    specificationVersion: 'v1',
    name,
    async compact(input): Promise<CompactionOutput> {
      const messages = input.messages;
      if (maxEvents !== undefined && messages.length <= maxEvents) return { messages: [...messages] };
      const viewSize = Math.floor((maxEvents ?? messages.length) / 2);
      const fromTail = Math.max(1, viewSize - keepFirst - 1);
      const turns = groupTurns(messages);
      const headEnd = turns.find((turn) => turn.end >= keepFirst)?.end ?? messages.length;
      const wantedTailStart = messages.length - fromTail;
      const tailStart = turns.find((turn) => turn.start >= wantedTailStart)?.start ?? messages.length;
      if (tailStart <= headEnd) return { messages: [...messages] };

      const requestIndex = latestUserMessageIndex(messages);
      const keptInside = (index: number) =>
        index === requestIndex || messages[index]!.role === 'system' ? [messages[index]!] : [];
      const forgotten = messages.slice(headEnd, tailStart);
      const kept = forgotten.flatMap((_, offset) => keptInside(headEnd + offset));
      const summaryText = await summarize(forgotten, provider, maxEventCharacters, input.abortSignal);
      const summary = withCompactionMetadata<UserMessage>(
        { role: 'user', content: [{ type: 'text', text: summaryText }] },
        { kind: 'summary', round: input.round, strategy: name },
      );
      return {
        messages: [...messages.slice(0, headEnd), summary, ...kept, ...messages.slice(tailStart)],
        summary: summaryText,
        details: { forgotten: forgotten.length },
      };
    },
  };
}

async function summarize(
  events: readonly Message[],
  provider: Provider,
  maxEventCharacters: number,
  abortSignal: AbortSignal | undefined,
): Promise<string> {
  const rendered = events
    .map(
      (event) =>
        `<EVENT role="${event.role}">\n${contextText([event]).slice(0, maxEventCharacters)}\n</EVENT>`,
    )
    .join('\n');
  const result = await provider.generate({
    messages: [
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: `Summarize these events of an agent's history, keeping what the agent needs to continue.\n${rendered}`,
          },
        ],
      },
    ],
    ...(abortSignal === undefined ? {} : { abortSignal }),
  });
  return result.text;
}
