import type { Message, Metadata, Part } from '@compaction/core';

/**
 * The key under a core message's (or part's) `metadata` that keeps what only LangChain has a place for (the
 * original content block, the message's name, provider kwargs, usage...), so a conversion back is exact.
 */
export const langChainMetadataKey = 'langchain';

/**
 * The key of a LangChain message's `additional_kwargs` holding the core message's compaction marks (pinned,
 * summary, removal note...): providers' LangChain integrations send only the kwargs they know, so it is never
 * sent, and it survives a LangGraph checkpoint. `{ compaction: { pinned: true } }` pins a message.
 */
export const compactionKwargsKey = 'compaction';

/** The key of `additional_kwargs` holding core metadata other than the compaction marks. */
export const compactionMetadataKwargsKey = 'compaction_metadata';

/** What a message's slot keeps. Values are LangChain's own, kept as they are (by reference in memory). */
export interface MessageSlot {
  name?: string;
  additionalKwargs?: Record<string, unknown>;
  responseMetadata?: Record<string, unknown>;
  usageMetadata?: unknown;
  invalidToolCalls?: unknown[];
  /** The content was a list that the plain rule would write back as a string. */
  arrayContent?: true;
  /** The order of `tool_calls` when it differs from the order of the tool-call parts. */
  toolCallOrder?: string[];
  /** A `ToolMessage` without a `name` (the part's tool name came from its call). */
  noName?: true;
  artifact?: unknown;
  toolMetadata?: unknown;
}

/** What a part's slot keeps. */
export interface PartSlot {
  /** The content block the part was read from, when writing the part afresh would not give it back. */
  block?: Record<string, unknown>;
  /** A tool call's `tool_calls` entry, when writing it afresh would not give it back. */
  call?: Record<string, unknown>;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The LangChain slot of a message or part, if any. */
export function slotOf<Slot>(element: { metadata?: Metadata }): Slot | undefined {
  const slot = element.metadata?.[langChainMetadataKey];
  return isRecord(slot) ? (slot as Slot) : undefined;
}

/** `metadata` with `slot` under the LangChain key, or without it when the slot is empty. */
export function withSlot(metadata: Metadata | undefined, slot: object): Metadata | undefined {
  const { [langChainMetadataKey]: _previous, ...rest } = metadata ?? {};
  const filled = Object.keys(slot).length > 0;
  if (!filled) return Object.keys(rest).length > 0 ? rest : undefined;
  // Slots hold LangChain's values as they are: JSON in practice, kept by reference otherwise.
  return { ...rest, [langChainMetadataKey]: slot as Metadata };
}

/** A part without its LangChain slot: what the slot's block must still decode to for the block to be reused. */
export function withoutSlot<Element extends Part | Message>(element: Element): Element {
  if (element.metadata?.[langChainMetadataKey] === undefined) return element;
  const { metadata: _metadata, ...rest } = element;
  const metadata = withSlot(element.metadata, {});
  return (metadata === undefined ? rest : { ...rest, metadata }) as Element;
}
