import { type OptionsSchema, validateOptions } from '@compaction/core';

/**
 * Where the summary goes and with which role.
 * - `user-before-task` (default): a user message right before the original task (right after the system
 *   prompt and pinned head). Valid for Anthropic and OpenAI alike (consecutive user turns are merged), never
 *   becomes "the newest user request", and never merges into an assistant turn that must start with thinking.
 * - `assistant-after-task`: an assistant message where the summarized span began, in chronological order,
 *   so the task and what precedes it stay as they were (and in the prompt cache). A user message there when an
 *   assistant message with reasoning follows; placed as with `user-before-task` when nothing would follow it
 *   (a trailing assistant message reads as a prefill) or the history would no longer start with a user turn.
 */
export type SummaryPlacement = 'user-before-task' | 'assistant-after-task';

/**
 * What happens when the summarizer fails (throws after its own retries, or answers empty, cut off or
 * without the required sections): `extractive` replaces the span with a digest built without the LLM (the
 * original task, the earlier summary, the artifact trail and the newest request); `error` throws
 * `SummarizationFailedError`, so the caller (or the Compactor's own fallback strategy) keeps the history.
 */
export type SummaryFallback = 'extractive' | 'error';

/**
 * What the summarizer is sent.
 * - `transcript` (default): a request of its own, the evicted span rendered as text (tool outputs shortened,
 *   split into chunks when the summarizer's window needs it) under the summarizer's system prompt. Every token
 *   is new to the provider's prompt cache, so the span is billed at the full input price.
 * - `continuation`: the conversation as the agent sends it (every message unchanged, the system prompt its
 *   own) and one more user message asking for the summary of the older span. The provider's prompt cache
 *   serves the prefix the agent's last request wrote, as a cache read. It pays off only when the summarizer
 *   is the agent's own model and provider, and the provider sends the agent's tool definitions with the
 *   request (the Anthropic adapter's `tools` setting). A conversation too large for the summarizer's window,
 *   or one the provider will not send as it is (it throws `InvalidMessagesError`, as the Anthropic adapter
 *   does for tool blocks with no `tools` configured), is sent as a `transcript` instead.
 */
export type SummarizerRequest = 'transcript' | 'continuation';

/** Options of the `summarization` strategy. Every field is optional; defaults are in the schema. */
export interface SummarizationOptions {
  /** Summarizer model id; default: the provider's own model. */
  model?: string;
  /**
   * Most tokens the summarizer may write (also capped by `summaryShare` of the target). Default 2,048. `0`
   * writes no summary text: the summarizer is never called (no provider is needed) and the summary is its
   * header and the artifact trail, built without a model.
   */
  maxOutputTokens?: number;
  /** Sampling temperature of the summarizer; not sent unless set. */
  temperature?: number;
  /** Share of the target kept as verbatim recent turns. Default 0.3. */
  recentShare?: number;
  /** Recent turns kept verbatim even when they exceed `recentShare` (while the target allows). Default 2. */
  minimumRecentTurns?: number;
  /** Most of the target the summary's text may take. Default 0.25. */
  summaryShare?: number;
  /** Most of the target the artifact trail may take; older detail is folded beyond it. Default 0.3. */
  trailShare?: number;
  /** Characters of one tool output (or tool input) sent to the summarizer; longer ones are shortened. Default 2,000. */
  toolOutputCharacters?: number;
  /** Characters of a command's first line kept in the artifact trail. Default 200. */
  commandCharacters?: number;
  /** Share of the summarizer's window (after its output) a request may fill, for tokenizer error. Default 0.8. */
  summarizerInputShare?: number;
  /**
   * The summarizer prompt, with named placeholders: `{{conversation}}` (required), `{{previousSummary}}`,
   * `{{artifactTrail}}`, `{{instructions}}`, `{{round}}`. Default: a structured prompt with fixed sections,
   * in the summary's `language`. A template of your own is sent as written, whatever `language` says.
   */
  template?: string;
  /**
   * Headings a summary must contain to be accepted, each exactly as named. Default: the default template's
   * seven sections when the default template is used (each under its name in any shipped language), none with
   * a custom template.
   */
  requiredSections?: string[];
  /** Instructions added to every summary request (per-call `/compact ...` text is added after them). */
  instructions?: string;
  /** Role and position of the summary message. Default `user-before-task`. */
  placement?: SummaryPlacement;
  /** What to do when the summarizer fails. Default `extractive`. */
  fallback?: SummaryFallback;
  /**
   * What the summarizer is sent: the evicted span rendered as a transcript (default), or the conversation as
   * sent followed by the summary request, read through the provider's prompt cache (`continuation`).
   */
  summarizerRequest?: SummarizerRequest;
  /**
   * The language the summary is written in: `auto` (default), the language the user writes in, detected from
   * the user's messages (English when unsure); or a BCP-47 tag whose primary subtag is shipped (`en`, `zh`,
   * `ja`, `ko`, `es`, `de`, `fr`, `pt`, `ru`; `pt-BR` reads as `pt`). The default template, its sections, the
   * artifact trail's headings and the fallback digest's headings are in that language.
   */
  language?: 'auto' | (string & {});
}

/** The options after defaults were filled in. */
export type ResolvedSummarizationOptions = Required<
  Omit<SummarizationOptions, 'model' | 'temperature' | 'template' | 'requiredSections' | 'instructions'>
> &
  Pick<SummarizationOptions, 'model' | 'temperature' | 'template' | 'requiredSections' | 'instructions'>;

const share = (description: string, defaultValue: number): OptionsSchema => ({
  type: 'number',
  exclusiveMinimum: 0,
  maximum: 1,
  default: defaultValue,
  description,
});

/** JSON Schema of {@link SummarizationOptions}, with the defaults. */
export const summarizationOptionsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    model: {
      type: 'string',
      minLength: 1,
      description: "Summarizer model id; default: the provider's model.",
    },
    maxOutputTokens: {
      type: 'integer',
      minimum: 0,
      default: 2048,
      description:
        'Most tokens the summarizer may write; 0: no summary text, the trail alone, no model call.',
    },
    temperature: {
      type: 'number',
      minimum: 0,
      maximum: 2,
      description: 'Summarizer temperature; unset by default.',
    },
    recentShare: share('Share of the target kept as verbatim recent turns.', 0.3),
    minimumRecentTurns: {
      type: 'integer',
      minimum: 0,
      default: 2,
      description: 'Recent turns kept verbatim even beyond recentShare, while the target allows.',
    },
    summaryShare: share("Most of the target the summary's text may take.", 0.25),
    trailShare: share('Most of the target the artifact trail may take.', 0.3),
    toolOutputCharacters: {
      type: 'integer',
      minimum: 100,
      default: 2000,
      description: 'Characters of one tool output sent to the summarizer.',
    },
    commandCharacters: {
      type: 'integer',
      minimum: 20,
      default: 200,
      description: "Characters of a command's first line kept in the artifact trail.",
    },
    summarizerInputShare: share("Share of the summarizer's window a request may fill.", 0.8),
    template: {
      type: 'string',
      minLength: 1,
      description:
        'Summarizer prompt with {{conversation}}, {{previousSummary}}, {{artifactTrail}}, {{instructions}}, {{round}}.',
    },
    requiredSections: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      description: 'Headings a summary must contain to be accepted.',
    },
    instructions: { type: 'string', description: 'Instructions added to every summary request.' },
    placement: {
      enum: ['user-before-task', 'assistant-after-task'],
      default: 'user-before-task',
      description: 'Role and position of the summary message.',
    },
    fallback: {
      enum: ['extractive', 'error'],
      default: 'extractive',
      description: 'What to do when the summarizer fails.',
    },
    language: {
      type: 'string',
      minLength: 1,
      default: 'auto',
      description:
        "Language of the summary: 'auto' (the user's, detected from their messages) or a language code such as 'zh' or 'pt-BR'.",
    },
    summarizerRequest: {
      enum: ['transcript', 'continuation'],
      default: 'transcript',
      description:
        'What the summarizer is sent: the span as a transcript, or the conversation as sent plus the summary request (read through the prompt cache).',
    },
  },
  additionalProperties: false,
};

/** Validates options against {@link summarizationOptionsSchema} and fills in the defaults. */
export function resolveSummarizationOptions(options: SummarizationOptions): ResolvedSummarizationOptions {
  return validateOptions<ResolvedSummarizationOptions>(
    summarizationOptionsSchema,
    options,
    'strategy "summarization"',
  );
}
