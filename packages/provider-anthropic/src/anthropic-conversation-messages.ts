import type Anthropic from '@anthropic-ai/sdk';
import { InvalidMessagesError } from '@compaction/core';

/** A tool's answer to one call, as {@link AnthropicConversation.addToolResults} takes it. */
export interface AnthropicToolResult {
  /** The `id` of the `tool_use` block this answers. */
  toolUseId: string;
  /** The tool's output: text, or text and image blocks. */
  content: string | Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam>;
  /** True when the tool failed; the model sees the content as an error. */
  isError?: boolean;
}

/** What a tool runner returns: the output text or blocks, or a whole result with `isError`. */
export type AnthropicToolOutput = AnthropicToolResult['content'] | Omit<AnthropicToolResult, 'toolUseId'>;

/** What a user turn may be given as: text, content blocks, or a whole user message. */
export type AnthropicUserInput = string | Anthropic.ContentBlockParam[] | Anthropic.MessageParam;

/** The user message a {@link AnthropicUserInput} stands for. */
export function userMessageOf(input: AnthropicUserInput): Anthropic.MessageParam {
  if (typeof input === 'string' || Array.isArray(input)) return { role: 'user', content: input };
  if (input.role !== 'user') {
    throw new InvalidMessagesError({
      issues: [
        { index: -1, path: 'role', message: 'only user turns can be sent; answers come from the model' },
      ],
    });
  }
  return input;
}

/** The `tool_result` blocks of a list of results. */
export function toolResultBlocks(results: readonly AnthropicToolResult[]): Anthropic.ToolResultBlockParam[] {
  return results.map((result) => ({
    type: 'tool_result',
    tool_use_id: result.toolUseId,
    content: result.content,
    ...(result.isError === undefined ? {} : { is_error: result.isError }),
  }));
}

/** The `tool_use` blocks of an assistant message (none for a user message or string content). */
export function toolUsesOf(message: Anthropic.MessageParam | undefined): Anthropic.ToolUseBlockParam[] {
  if (message?.role !== 'assistant' || typeof message.content === 'string') return [];
  return message.content.filter((block): block is Anthropic.ToolUseBlockParam => block.type === 'tool_use');
}
