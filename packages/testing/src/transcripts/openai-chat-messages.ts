import type {
  AssistantMessage,
  JSONValue,
  Message,
  TextPart,
  ToolCallPart,
  UserMessage,
} from '@compaction/core';

/** The OpenAI Chat message shapes found in the shared transcripts (SWE-agent, tau-bench, OpenHands). */
export interface ChatMessage {
  role: string;
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> | null;
  tool_call_id?: string;
  /** SWE-agent lists the answered call ids instead of one `tool_call_id`. */
  tool_call_ids?: string[];
  name?: string;
}

/**
 * Reads OpenAI Chat messages into core messages for tests: text content, tool calls with parsed JSON
 * arguments (an argument string that is not JSON is kept as `{ raw }`), and tool messages. This is a fixture
 * reader, not the lossless converter of the OpenAI provider package.
 */
export function openAIChatToMessages(chat: readonly ChatMessage[]): Message[] {
  const toolNames = new Map<string, string>();
  const messages: Message[] = [];
  for (const entry of chat) {
    const text = textOfContent(entry.content);
    switch (entry.role) {
      case 'system':
      case 'developer':
        messages.push({ role: 'system', content: [{ type: 'text', text }] });
        break;
      case 'user':
        messages.push({ role: 'user', content: [{ type: 'text', text }] } satisfies UserMessage);
        break;
      case 'assistant': {
        const calls: ToolCallPart[] = (entry.tool_calls ?? []).map((call) => {
          toolNames.set(call.id, call.function.name);
          return {
            type: 'tool-call',
            toolCallId: call.id,
            toolName: call.function.name,
            input: parseArguments(call.function.arguments),
          };
        });
        const content: AssistantMessage['content'] = [
          ...(text === '' && calls.length > 0 ? [] : [textPart(text)]),
          ...calls,
        ];
        messages.push({ role: 'assistant', content });
        break;
      }
      case 'tool': {
        const ids = entry.tool_call_ids ?? (entry.tool_call_id === undefined ? [] : [entry.tool_call_id]);
        messages.push({
          role: 'tool',
          content: ids.map((id) => ({
            type: 'tool-result',
            toolCallId: id,
            toolName: toolNames.get(id) ?? entry.name ?? 'tool',
            output: text,
          })),
        });
        break;
      }
    }
  }
  return messages;
}

function textPart(text: string): TextPart {
  return { type: 'text', text };
}

function textOfContent(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => part.text ?? '').join('\n');
}

function parseArguments(text: string): JSONValue {
  try {
    return JSON.parse(text) as JSONValue;
  } catch {
    return { raw: text };
  }
}
