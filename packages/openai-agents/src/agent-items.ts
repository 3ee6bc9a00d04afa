import type { Message } from '@compaction/core';
import {
  fromOpenAIResponsesInput,
  type OpenAIResponsesInputParam,
  toOpenAIResponsesInput,
} from '@compaction/provider-openai';
import type { AgentInputItem } from '@openai/agents';

/**
 * The Agents SDK's items are Responses-shaped, but name a few things differently: `callId` for `call_id`,
 * `function_call_result` for `function_call_output`, a text output as `{ type: 'text', text }`. The items are
 * renamed to the Responses shape, converted with the Responses converters of `@compaction/provider-openai`
 * (lossless, with every field they do not know kept), and renamed back.
 */
const outputMarker = 'compactionAgentsOutput';
/** Items kept whole: the Responses converter would read their Responses namesakes, which they are not. */
const wrappedType = 'compaction_agents_item';

type Item = Record<string, unknown>;

/** Converts Agents SDK items to core messages; {@link toAgentItems} gives back equal items. */
export function fromAgentItems(items: readonly AgentInputItem[]): Message[] {
  const input = (items as readonly Item[]).map(toResponsesItem);
  return fromOpenAIResponsesInput(input as unknown as OpenAIResponsesInputParam);
}

/** Converts core messages (those of {@link fromAgentItems}, compacted or not) back to Agents SDK items. */
export function toAgentItems(messages: readonly Message[]): AgentInputItem[] {
  const input = toOpenAIResponsesInput([...messages]) as unknown as Item[] | string;
  const items: Item[] = typeof input === 'string' ? [{ role: 'user', content: input }] : input;
  return items.map(fromResponsesItem) as AgentInputItem[];
}

/** The text of an output `{ type: 'text', text }` with no other field. */
function textObjectOf(output: unknown): string | undefined {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return undefined;
  const record = output as Item;
  const keys = Object.keys(record);
  const plain = keys.length === 2 && keys[0] === 'type' && keys[1] === 'text';
  return plain && record.type === 'text' && typeof record.text === 'string' ? record.text : undefined;
}

function toResponsesItem(item: Item): Item {
  if (item.type === 'function_call') return renameKeys(item, { callId: 'call_id' });
  if (item.type === 'function_call_result') {
    const renamed = renameKeys(item, { callId: 'call_id' }, { type: 'function_call_output' });
    const output = item.output;
    const text = textObjectOf(output);
    if (text !== undefined) return { ...renamed, output: text, [outputMarker]: 'text' };
    // One image or file: a list of one part, which the converter keeps as it is when it cannot read it.
    if (typeof output === 'object' && output !== null && !Array.isArray(output)) {
      return { ...renamed, output: [output], [outputMarker]: 'single' };
    }
    return renamed;
  }
  const isMessage = item.type === undefined || item.type === 'message';
  return isMessage ? item : { type: wrappedType, item };
}

function fromResponsesItem(item: Item): Item {
  if (item.type === wrappedType) return item.item as Item;
  if (item.type === 'function_call') return renameKeys(item, { call_id: 'callId' });
  if (item.type === 'function_call_output') {
    const { [outputMarker]: marker, ...rest } = item;
    const renamed = renameKeys(rest, { call_id: 'callId' }, { type: 'function_call_result' });
    if (marker === 'text' && typeof renamed.output === 'string') {
      return { ...renamed, output: { type: 'text', text: renamed.output } };
    }
    if (marker === 'single' && Array.isArray(renamed.output) && renamed.output.length === 1) {
      return { ...renamed, output: renamed.output[0] };
    }
    return renamed;
  }
  // A message a strategy wrote (a summary, a note) has no status; the SDK's assistant items carry one.
  if (item.role === 'assistant' && item.status === undefined) return { ...item, status: 'completed' };
  return item;
}

/** Renames keys in place of the old ones, so key order, which the converters keep, is unchanged. */
function renameKeys(item: Item, names: Record<string, string>, values: Item = {}): Item {
  const renamed: Item = {};
  for (const [key, value] of Object.entries(item)) {
    const name = names[key] ?? key;
    renamed[name] = Object.hasOwn(values, name) ? values[name] : value;
  }
  return renamed;
}
