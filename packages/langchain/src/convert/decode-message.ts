import type {
  AssistantMessage,
  Message,
  Metadata,
  Part,
  ToolCallPart,
  ToolResultPart,
} from '@compaction/core';
import { deepEqual, type JSONValue } from '@compaction/core';
import { ConversionProblem } from '@compaction/provider-utils';
import type { BaseMessage } from '@langchain/core/messages';
import { type BlockPlace, type ContentBlock, decodeBlock } from './content-blocks.js';
import {
  compactionKwargsKey,
  compactionMetadataKwargsKey,
  isRecord,
  type MessageSlot,
  type PartSlot,
  withSlot,
} from './langchain-slot.js';

/** Fields of the LangChain message kinds, read loosely: a message may come from another copy of the package. */
interface LangChainFields {
  content: unknown;
  id?: string | undefined;
  name?: string | undefined;
  additional_kwargs?: Record<string, unknown>;
  response_metadata?: Record<string, unknown>;
  tool_calls?: Array<Record<string, unknown>>;
  invalid_tool_calls?: unknown[];
  usage_metadata?: unknown;
  tool_call_id?: string;
  status?: string;
  artifact?: unknown;
  metadata?: unknown;
}

/** The tool name of each call seen so far, for tool messages without a `name`. */
export type CallNames = Map<string, string>;

/**
 * The core message of one LangChain message. `HumanMessage`, `SystemMessage`, `AIMessage` (and its chunk) and
 * `ToolMessage` are read; any other kind is a {@link ConversionProblem}.
 */
export function decodeMessage(message: BaseMessage, callNames: CallNames): Message {
  const type = message.getType();
  const fields = message as unknown as LangChainFields;
  const slot: MessageSlot = {};
  const { metadata, kwargs } = splitKwargs(fields.additional_kwargs);
  if (kwargs !== undefined) slot.additionalKwargs = kwargs;
  if (isFilled(fields.response_metadata)) slot.responseMetadata = fields.response_metadata;
  const base = (role: Message['role']) => ({
    role,
    ...(fields.id === undefined ? {} : { id: fields.id }),
  });
  const finish = <Decoded extends Message>(decoded: Decoded): Decoded => {
    const joined = withSlot(metadata, slot);
    return (joined === undefined ? decoded : { ...decoded, metadata: joined }) as Decoded;
  };
  switch (type) {
    case 'system':
    case 'human': {
      if (fields.name !== undefined) slot.name = fields.name;
      const place = type === 'system' ? 'system' : 'user';
      const content = decodeContent(fields.content, place, slot);
      return finish({ ...base(place), content } as Message);
    }
    case 'ai':
      return finish(decodeAssistant(fields, slot, base('assistant') as AssistantMessage, callNames));
    case 'tool':
      return finish({ ...base('tool'), content: [decodeToolResult(fields, slot, callNames)] } as Message);
    default:
      throw new ConversionProblem(
        '',
        `a ${type} message has no core equivalent (human, system, ai and tool messages do)`,
      );
  }
}

/** Core metadata from `additional_kwargs`, and the kwargs that are LangChain's own. */
function splitKwargs(additionalKwargs: Record<string, unknown> | undefined): {
  metadata?: Metadata;
  kwargs?: Record<string, unknown>;
} {
  if (!isFilled(additionalKwargs)) return {};
  const {
    [compactionKwargsKey]: compaction,
    [compactionMetadataKwargsKey]: others,
    ...kwargs
  } = additionalKwargs;
  const metadata: Metadata = {
    ...(isRecord(others) ? (others as Metadata) : {}),
    ...(isRecord(compaction) ? { compaction: compaction as Metadata } : {}),
  };
  // A value of one of our keys that is not a record is the caller's own: it stays with the kwargs.
  const kept = {
    ...kwargs,
    ...(compaction === undefined || isRecord(compaction) ? {} : { [compactionKwargsKey]: compaction }),
    ...(others === undefined || isRecord(others) ? {} : { [compactionMetadataKwargsKey]: others }),
  };
  return {
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    ...(Object.keys(kept).length > 0 ? { kwargs: kept } : {}),
  };
}

function isFilled(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && Object.keys(value).length > 0;
}

/** Whether parts would be written back as a string: at most one text part with nothing kept beside it. */
export function writesAsString(parts: readonly Part[]): boolean {
  return parts.length <= 1 && parts.every((part) => part.type === 'text' && part.metadata === undefined);
}

function decodeContent(content: unknown, place: BlockPlace, slot: MessageSlot): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw new ConversionProblem('content', 'must be a string or a list of blocks');
  const parts = content.map((block, index) => {
    if (!isRecord(block)) throw new ConversionProblem(`content[${index}]`, 'must be a content block object');
    return decodeBlock(block, place);
  });
  if (writesAsString(parts)) slot.arrayContent = true;
  return parts;
}

const toolCallBlockTypes = new Set(['tool_use', 'tool_call']);

function decodeAssistant(
  fields: LangChainFields,
  slot: MessageSlot,
  message: AssistantMessage,
  callNames: CallNames,
): AssistantMessage {
  if (fields.name !== undefined) slot.name = fields.name;
  if (fields.usage_metadata !== undefined) slot.usageMetadata = fields.usage_metadata;
  if (fields.invalid_tool_calls !== undefined && fields.invalid_tool_calls.length > 0)
    slot.invalidToolCalls = fields.invalid_tool_calls;
  const calls = (fields.tool_calls ?? []).map((call, index) => readCall(call, index));
  const unclaimed = new Map(calls.map((call) => [call.toolCallId, call]));
  const content = typeof fields.content === 'string' ? [] : fields.content;
  const parts: AssistantMessage['content'] = [];
  let toolBlocks = 0;
  if (typeof fields.content === 'string') {
    if (fields.content !== '') parts.push({ type: 'text', text: fields.content });
  } else if (!Array.isArray(content)) {
    throw new ConversionProblem('content', 'must be a string or a list of blocks');
  } else {
    content.forEach((block, index) => {
      if (!isRecord(block))
        throw new ConversionProblem(`content[${index}]`, 'must be a content block object');
      // A provider's tool-use block stands for the `tool_calls` entry of its id, where it is in the content.
      const call = toolCallBlockTypes.has(block.type as string)
        ? unclaimed.get(block.id as string)
        : undefined;
      if (call !== undefined) {
        unclaimed.delete(call.toolCallId);
        toolBlocks++;
        parts.push(withPartSlot(call, { block }));
      } else {
        parts.push(decodeBlock(block, 'assistant') as AssistantMessage['content'][number]);
      }
    });
    if (toolBlocks === 0 && writesAsString(parts)) slot.arrayContent = true;
  }
  parts.push(...unclaimed.values());
  const order = calls.map((call) => call.toolCallId);
  const partOrder = parts.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []));
  if (!deepEqual(order, partOrder)) slot.toolCallOrder = order;
  for (const call of calls) callNames.set(call.toolCallId, call.toolName);
  return { ...message, content: parts };
}

/** A `tool_calls` entry as a tool-call part, the entry kept when writing the part afresh would not give it. */
function readCall(call: Record<string, unknown>, index: number): ToolCallPart {
  if (typeof call.id !== 'string' || typeof call.name !== 'string') {
    throw new ConversionProblem(`tool_calls[${index}]`, 'a tool call needs a string `id` and `name`');
  }
  const part: ToolCallPart = {
    type: 'tool-call',
    toolCallId: call.id,
    toolName: call.name,
    input: (call.args ?? {}) as JSONValue,
  };
  return deepEqual(freshCall(part), call) ? part : withPartSlot(part, { call });
}

/** The `tool_calls` entry of a tool-call part, as LangChain's chat models write them. */
export function freshCall(part: ToolCallPart): Record<string, unknown> {
  return { type: 'tool_call', id: part.toolCallId, name: part.toolName, args: part.input };
}

function withPartSlot<Decoded extends Part>(part: Decoded, slot: PartSlot): Decoded {
  const existing = part.metadata?.langchain;
  const merged = { ...(isRecord(existing) ? existing : {}), ...slot };
  return { ...part, metadata: withSlot(part.metadata, merged) };
}

function decodeToolResult(fields: LangChainFields, slot: MessageSlot, callNames: CallNames): ToolResultPart {
  const toolCallId = fields.tool_call_id;
  if (typeof toolCallId !== 'string') {
    throw new ConversionProblem('tool_call_id', 'a tool message needs the string id of the call it answers');
  }
  if (fields.name === undefined) slot.noName = true;
  if (fields.artifact !== undefined) slot.artifact = fields.artifact;
  if (fields.metadata !== undefined) slot.toolMetadata = fields.metadata;
  let output: ToolResultPart['output'];
  if (typeof fields.content === 'string') output = fields.content;
  else if (Array.isArray(fields.content)) {
    output = fields.content.map((block, index) => {
      if (!isRecord(block))
        throw new ConversionProblem(`content[${index}]`, 'must be a content block object');
      return decodeBlock(block as ContentBlock, 'tool') as Exclude<ToolResultPart['output'], string>[number];
    });
  } else throw new ConversionProblem('content', 'must be a string or a list of blocks');
  return {
    type: 'tool-result',
    toolCallId,
    toolName: fields.name ?? callNames.get(toolCallId) ?? '',
    output,
    ...(fields.status === 'error'
      ? { isError: true }
      : fields.status === 'success'
        ? { isError: false }
        : {}),
  };
}
