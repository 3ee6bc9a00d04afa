import {
  CompactionAbortedError,
  type GenerateRequest,
  type Message,
  type Provider,
  type TokenEstimator,
} from '@compaction/core';
import { renderTranscript } from './render-transcript.js';
import { cutToTokens } from './shorten-text.js';
import { checkSummary, type SummaryFailure } from './summary-failure.js';
import { renderTemplate } from './summary-template.js';

/** The summarizer's system prompt; the user-replaceable part is the template. */
export const summarizerSystemPrompt =
  'You condense agent conversations into handover summaries. Follow the requested format exactly and answer ' +
  'with the summary only.';

/** What {@link summarizeSpan} needs. */
export interface SummarizeSpanInput {
  provider: Provider;
  model: string | undefined;
  /** The evicted span. */
  messages: readonly Message[];
  /** The text of the summary being merged, if any. */
  previousSummary: string | undefined;
  /** The rendered artifact trail, shown to the summarizer for reference. */
  artifactTrail: string;
  instructions: string | undefined;
  round: number;
  template: string;
  requiredSections: readonly string[];
  /** Most tokens the summary may have. */
  outputTokens: number;
  temperature: number | undefined;
  toolOutputCharacters: number;
  /** Share of the summarizer's window (after its output) a request may fill. */
  inputShare: number;
  estimator: TokenEstimator;
  abortSignal: AbortSignal | undefined;
}

/** The summary, or why there is none; with the calls made and the chunks the span was cut into. */
export type SummarizeSpanOutcome = { calls: number; chunks: number; inputTokens: number[] } & (
  | { text: string; failure?: undefined }
  | { text?: undefined; failure: SummaryFailure }
);

/**
 * Summarizes a span with the provider, merging the previous summary. The request never exceeds the
 * summarizer's own window: tool outputs are shortened, and a span still too large is cut into chunks that
 * are summarized in order, each merged into the summary of the chunks before it (the first into the
 * previous round's summary). Every answer is checked; the first bad one ends the attempt with its reason.
 */
export async function summarizeSpan(input: SummarizeSpanInput): Promise<SummarizeSpanOutcome> {
  const { estimator } = input;
  let limits: ReturnType<Provider['modelLimits']>;
  try {
    limits = input.provider.modelLimits(input.model);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      calls: 0,
      chunks: 0,
      inputTokens: [],
      failure: { reason: 'provider-error', message, cause: error },
    };
  }
  const outputTokens = Math.max(1, Math.min(input.outputTokens, limits.maxOutputTokens));
  const hardLimit = limits.contextWindow - outputTokens;
  const inputBudget = Math.floor(hardLimit * input.inputShare);
  const countText = (text: string) => estimator.countText(text);
  const countRequest = (messages: Message[]) =>
    messages.reduce((sum, message) => sum + estimator.countMessage(message), 0);

  const trailText = cutToTokens(input.artifactTrail, Math.floor(inputBudget * 0.15), countText);
  const build = (conversation: string, previous: string | undefined): Message[] => [
    { role: 'system', content: [{ type: 'text', text: summarizerSystemPrompt }] },
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text: renderTemplate(input.template, {
            conversation,
            previousSummary: previous ?? '(none: this is the first summary)',
            artifactTrail: trailText.length > 0 ? trailText : '(none recorded)',
            instructions: input.instructions ?? 'none',
            round: String(input.round),
          }),
        },
      ],
    },
  ];
  const fixed = countRequest(build('', undefined));
  const previousRoom = Math.max(countText(input.previousSummary ?? ''), outputTokens);
  const room = inputBudget - fixed - previousRoom;
  if (room < 64) {
    return {
      calls: 0,
      chunks: 0,
      inputTokens: [],
      failure: {
        reason: 'summarizer-window-too-small',
        message: `the summarizer's window (${limits.contextWindow} tokens) leaves ${room} tokens for the conversation`,
      },
    };
  }

  const entries = renderTranscript(input.messages, {
    toolOutputCharacters: input.toolOutputCharacters,
    entryTokens: room,
    countText,
  });
  const chunks = packEntries(entries, room, countText);
  let summary = input.previousSummary;
  const inputTokens: number[] = [];
  for (const [index, chunk] of chunks.entries()) {
    const messages = build(chunk, summary);
    const tokens = countRequest(messages);
    if (tokens > hardLimit) {
      return {
        calls: index,
        chunks: chunks.length,
        inputTokens,
        failure: {
          reason: 'summarizer-window-too-small',
          message: `a request of ${tokens} tokens would not fit the summarizer's window of ${limits.contextWindow}`,
        },
      };
    }
    inputTokens.push(tokens);
    const request: GenerateRequest = {
      messages,
      maxOutputTokens: outputTokens,
      ...(input.model === undefined ? {} : { modelId: input.model }),
      ...(input.temperature === undefined ? {} : { temperature: input.temperature }),
      ...(input.abortSignal === undefined ? {} : { abortSignal: input.abortSignal }),
    };
    let result: Awaited<ReturnType<Provider['generate']>>;
    try {
      result = await input.provider.generate(request);
    } catch (error) {
      if (input.abortSignal?.aborted) throw new CompactionAbortedError({ cause: error });
      const message = error instanceof Error ? error.message : String(error);
      return {
        calls: index + 1,
        chunks: chunks.length,
        inputTokens,
        failure: { reason: 'provider-error', message, cause: error },
      };
    }
    const failure = checkSummary(result, input.requiredSections);
    if (failure !== undefined) return { calls: index + 1, chunks: chunks.length, inputTokens, failure };
    summary = result.text.trim();
  }
  return { calls: chunks.length, chunks: chunks.length, inputTokens, text: summary ?? '' };
}

/** Packs entries, in order, into as few chunks of at most `room` tokens as possible. */
function packEntries(
  entries: readonly string[],
  room: number,
  countText: (text: string) => number,
): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const entry of entries) {
    const entryTokens = countText(entry) + 1;
    if (current.length > 0 && tokens + entryTokens > room) {
      chunks.push(current.join('\n\n'));
      current = [];
      tokens = 0;
    }
    current.push(entry);
    tokens += entryTokens;
  }
  if (current.length > 0) chunks.push(current.join('\n\n'));
  return chunks;
}
