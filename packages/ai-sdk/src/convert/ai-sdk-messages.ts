import type { Message } from '@compaction/core';
import type { ModelMessage } from 'ai';
import type { LanguageModelPrompt } from '../ai-sdk-types.js';
import { decodeMessages, encodeMessages } from './convert-messages.js';

/**
 * Converts AI SDK model messages (what `generateText`, `streamText` and `prepareStep` use) to core messages,
 * losslessly: whatever the core model has no field for (provider options, tool output kinds such as `json`
 * or `execution-denied`, bytes and URLs, tool approvals, provider-executed tools) is kept under
 * `metadata.aiSdk`, and {@link toAiSdk} restores it. Fields an earlier {@link toAiSdk} kept under
 * `providerOptions.compaction` (ids, metadata, reasoning signatures) come back too.
 * The input is not changed. Throws `InvalidMessagesError` for malformed messages.
 */
export function fromAiSdk(messages: readonly ModelMessage[]): Message[] {
  return decodeMessages(messages, 'model');
}

/**
 * Converts core messages to AI SDK model messages; the inverse of {@link fromAiSdk}. Core-only fields (ids,
 * metadata such as compaction marks, reasoning signatures) go under `providerOptions.compaction`, a key no
 * provider reads. Throws `InvalidMessagesError` for malformed messages.
 */
export function toAiSdk(messages: readonly Message[]): ModelMessage[] {
  return encodeMessages(messages, 'model') as ModelMessage[];
}

/**
 * Converts a provider-level prompt (what a language-model middleware sees) to core messages, losslessly, as
 * {@link fromAiSdk} does for model messages.
 */
export function fromLanguageModelPrompt(prompt: LanguageModelPrompt): Message[] {
  return decodeMessages(prompt, 'prompt');
}

/**
 * Converts core messages to a provider-level prompt; the inverse of {@link fromLanguageModelPrompt}. Core
 * images become `file` parts there, as the AI SDK itself does.
 */
export function toLanguageModelPrompt(messages: readonly Message[]): LanguageModelPrompt {
  return encodeMessages(messages, 'prompt') as LanguageModelPrompt;
}
