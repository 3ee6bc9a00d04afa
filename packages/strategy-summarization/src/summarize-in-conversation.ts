import { InvalidMessagesError, type Message } from '@compaction/core';
import { conversationPrefix } from './conversation-prefix.js';
import { previousSummaryPointer, spanPointer } from './span-pointer.js';
import type { SummarizeSpanInput, SummarizeSpanOutcome } from './summarize-span.js';
import {
  callSummarizer,
  requestTokens,
  summarizerCallSettings,
  summarizerWindow,
} from './summarizer-call.js';
import { renderTemplate } from './summary-template.js';

/**
 * Opens the summary request in the agent's own conversation: the model that reads it has the agent's tools
 * and was working on the task, and must do neither now.
 */
export const continuationLead =
  'Pause the task: do not call any tool and do not continue the work. Answer this message with text only.';

/**
 * What `{{artifactTrail}}` reads in the conversation: the trail is built from the tool calls the conversation
 * above shows, and an earlier summary there shows the trail of the rounds before, so it is not repeated (it
 * would be new input, not a cache read, and it grows with every round).
 */
export const trailPointer =
  'Not repeated here: it is built from the tool calls in the conversation above and the trail of any earlier ' +
  'summary there, and it is kept verbatim beside your summary.';

/** What {@link summarizeInConversation} needs: the span's settings, and the conversation it is part of. */
export interface ConversationSummaryInput extends Omit<SummarizeSpanInput, 'messages'> {
  /** The history as the agent sends it, unchanged. */
  conversation: readonly Message[];
  /** The evicted span: messages of the conversation, oldest first. */
  evicted: readonly Message[];
}

/**
 * Asks for the summary as one more user message of the conversation itself: the messages as the agent sent
 * them (same objects, same order, the system prompt its own), so the provider's prompt cache serves what the
 * agent's last request wrote, then the template with `{{conversation}}` pointing at the span above instead of
 * repeating it. One call, no chunks. `undefined` when the conversation and the request do not fit the
 * summarizer's window, or when the provider throws `InvalidMessagesError` for it (a conversation it cannot
 * send as it is, such as Anthropic tool blocks with no `tools` configured): the span then goes as a
 * transcript, which can be shortened and split.
 */
export async function summarizeInConversation(
  input: ConversationSummaryInput,
): Promise<SummarizeSpanOutcome | undefined> {
  const { estimator } = input;
  const sized = summarizerWindow(input.provider, input.model, input.outputTokens, input.inputShare);
  if (sized.failure !== undefined) {
    return { calls: 0, chunks: 0, inputTokens: [], failure: sized.failure };
  }
  const { outputTokens, inputBudget } = sized.window;
  const prefix = conversationPrefix(input.conversation);
  const request: Message = {
    role: 'user',
    content: [
      {
        type: 'text',
        text: `${continuationLead}\n\n${renderTemplate(input.template, {
          conversation: spanPointer(prefix, input.evicted),
          previousSummary:
            previousSummaryPointer(prefix, input.previousSummary) ?? input.language.prompt.noPreviousSummary,
          artifactTrail: trailPointer,
          instructions: input.instructions ?? input.language.prompt.noInstructions,
          round: String(input.round),
        })}`,
      },
    ],
  };
  const messages = [...prefix, request];
  const tokens = requestTokens(messages, estimator);
  if (tokens > inputBudget) return undefined;
  const answer = await callSummarizer(messages, summarizerCallSettings(input, outputTokens));
  // The adapter refused to send the conversation as it is (say, tool blocks with no tool definitions to send
  // them with): nothing was sent, and the transcript holds no block the API could refuse.
  if (answer.failure !== undefined && InvalidMessagesError.isInstance(answer.failure.cause)) return undefined;
  return answer.failure === undefined
    ? { calls: 1, chunks: 1, inputTokens: [tokens], text: answer.text }
    : { calls: 1, chunks: 1, inputTokens: [tokens], failure: answer.failure };
}
