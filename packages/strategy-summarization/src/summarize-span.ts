import type { Message, Provider, TokenEstimator } from '@compaction/core';
import type { SummaryLanguage } from './languages/summary-language.js';
import { renderTranscript } from './render-transcript.js';
import { cutToTokens } from './shorten-text.js';
import {
  callSummarizer,
  requestTokens,
  summarizerCallSettings,
  summarizerWindow,
} from './summarizer-call.js';
import type { RequiredSection, SummaryFailure } from './summary-failure.js';
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
  requiredSections: readonly RequiredSection[];
  /** The language of the summary: what the template's placeholders read when there is nothing to put there. */
  language: SummaryLanguage;
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
  const sized = summarizerWindow(input.provider, input.model, input.outputTokens, input.inputShare);
  if (sized.failure !== undefined) {
    return { calls: 0, chunks: 0, inputTokens: [], failure: sized.failure };
  }
  const { outputTokens, hardLimit, inputBudget, contextWindow } = sized.window;
  const countText = (text: string) => estimator.countText(text);
  const countRequest = (messages: Message[]) => requestTokens(messages, estimator);

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
            previousSummary: previous ?? input.language.prompt.noPreviousSummary,
            artifactTrail: trailText.length > 0 ? trailText : input.language.prompt.noArtifactTrail,
            instructions: input.instructions ?? input.language.prompt.noInstructions,
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
        message: `the summarizer's window (${contextWindow} tokens) leaves ${room} tokens for the conversation`,
      },
    };
  }

  const entries = renderTranscript(input.messages, {
    toolOutputCharacters: input.toolOutputCharacters,
    entryTokens: room,
    countText,
  });
  const chunks = packEntries(entries, room, countText);
  const call = summarizerCallSettings(input, outputTokens);
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
          message: `a request of ${tokens} tokens would not fit the summarizer's window of ${contextWindow}`,
        },
      };
    }
    inputTokens.push(tokens);
    const answer = await callSummarizer(messages, call);
    if (answer.failure !== undefined) {
      return { calls: index + 1, chunks: chunks.length, inputTokens, failure: answer.failure };
    }
    summary = answer.text;
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
