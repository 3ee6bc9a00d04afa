import type {
  AssistantMessage,
  Message,
  Metadata,
  Part,
  ToolCallPart,
  ToolResultPart,
} from '@compaction/core';
import { deepEqual } from '@compaction/core';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { type BlockPlace, type ContentBlock, encodePart } from './content-blocks.js';
import { freshCall, writesAsString } from './decode-message.js';
import {
  compactionKwargsKey,
  compactionMetadataKwargsKey,
  isRecord,
  langChainMetadataKey,
  type MessageSlot,
  type PartSlot,
  slotOf,
} from './langchain-slot.js';

/**
 * The LangChain messages of one core message: one, or one `ToolMessage` per result of a tool message (LangChain
 * answers each call with its own message; the message's id goes to the first).
 */
export function encodeMessage(message: Message): BaseMessage[] {
  const slot = slotOf<MessageSlot>(message) ?? {};
  const common = {
    ...(message.id === undefined ? {} : { id: message.id }),
    additional_kwargs: kwargsOf(message.metadata, slot),
    response_metadata: slot.responseMetadata ?? {},
  };
  const name = slot.name === undefined ? {} : { name: slot.name };
  switch (message.role) {
    case 'system':
      return [
        new SystemMessage({
          ...common,
          ...name,
          content: contentOf(message.content, 'system', slot) as string,
        }),
      ];
    case 'user':
      return [
        new HumanMessage({ ...common, ...name, content: contentOf(message.content, 'user', slot) as string }),
      ];
    case 'assistant':
      return [encodeAssistant(message, slot, { ...common, ...name })];
    case 'tool':
      return message.content.map(
        (result, index) =>
          new ToolMessage({
            ...(index === 0 ? common : { ...common, id: undefined }),
            ...toolFields(result, slot),
          } as ConstructorParameters<typeof ToolMessage>[0] & object),
      );
  }
}

/** `additional_kwargs`: LangChain's own, with the core metadata (compaction marks first) beside them. */
function kwargsOf(metadata: Metadata | undefined, slot: MessageSlot): Record<string, unknown> {
  const { [langChainMetadataKey]: _slot, compaction, ...others } = metadata ?? {};
  return {
    ...slot.additionalKwargs,
    ...(compaction === undefined ? {} : { [compactionKwargsKey]: compaction }),
    ...(Object.keys(others).length > 0 ? { [compactionMetadataKwargsKey]: others } : {}),
  };
}

function contentOf(parts: readonly Part[], place: BlockPlace, slot: MessageSlot): string | ContentBlock[] {
  if (slot.arrayContent !== true && writesAsString(parts)) {
    const [first] = parts;
    return first?.type === 'text' ? first.text : '';
  }
  return parts.map((part) => encodePart(part, place));
}

function encodeAssistant(
  message: AssistantMessage,
  slot: MessageSlot,
  common: Record<string, unknown>,
): AIMessage {
  const calls = message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
  const others = message.content.filter((part) => part.type !== 'tool-call');
  const inContent = calls.some((call) => slotOf<PartSlot>(call)?.block !== undefined);
  const content =
    !inContent && slot.arrayContent !== true && writesAsString(others)
      ? contentOf(others, 'assistant', slot)
      : message.content.flatMap((part): ContentBlock[] => {
          if (part.type !== 'tool-call') return [encodePart(part, 'assistant')];
          const block = slotOf<PartSlot>(part)?.block;
          return block === undefined ? [] : [callBlock(block, part)];
        });
  const entries = calls.map(callEntry);
  const order = slot.toolCallOrder;
  if (order !== undefined && deepEqual([...order].sort(), entries.map((entry) => entry.id).sort())) {
    entries.sort((left, right) => order.indexOf(left.id as string) - order.indexOf(right.id as string));
  }
  return new AIMessage({
    ...common,
    content: content as string,
    tool_calls: entries as never,
    ...(slot.invalidToolCalls === undefined ? {} : { invalid_tool_calls: slot.invalidToolCalls as never }),
    ...(slot.usageMetadata === undefined ? {} : { usage_metadata: slot.usageMetadata as never }),
  });
}

/** The `tool_calls` entry of a part: the one it was read from while it still holds the part's call. */
function callEntry(part: ToolCallPart): Record<string, unknown> {
  const call = slotOf<PartSlot>(part)?.call;
  if (
    call !== undefined &&
    call.id === part.toolCallId &&
    call.name === part.toolName &&
    deepEqual(call.args ?? {}, part.input)
  ) {
    return call;
  }
  return freshCall(part);
}

/**
 * A provider's tool-use block in the content, brought up to date with the part. An input that is not an
 * object (the unparsed JSON a stream can leave) stays as it was: `tool_calls` holds the parsed one.
 */
function callBlock(block: Record<string, unknown>, part: ToolCallPart): ContentBlock {
  const key = block.type === 'tool_use' ? 'input' : 'args';
  const stale = isRecord(block[key]) && !deepEqual(block[key], part.input);
  if (block.id === part.toolCallId && block.name === part.toolName && !stale) return block;
  return { ...block, id: part.toolCallId, name: part.toolName, [key]: part.input };
}

function toolFields(result: ToolResultPart, slot: MessageSlot): Record<string, unknown> {
  const content =
    typeof result.output === 'string' ? result.output : result.output.map((part) => encodePart(part, 'tool'));
  return {
    content,
    tool_call_id: result.toolCallId,
    ...(slot.noName === true ? {} : { name: result.toolName }),
    ...(result.isError === undefined ? {} : { status: result.isError ? 'error' : 'success' }),
    ...(slot.artifact === undefined ? {} : { artifact: slot.artifact }),
    ...(slot.toolMetadata === undefined ? {} : { metadata: slot.toolMetadata }),
  };
}
