import type { Message } from '@compaction/core';
import { contextText } from './context-text.js';
import type { Probe } from './probe.js';

/** Why a probe is missing from a compacted context. */
export type LossReason = 'dropped' | 'shortened';

/** A lost probe and why it was lost. */
export interface LostProbe {
  probe: Probe;
  reason: LossReason;
}

/**
 * Finds why each lost probe is gone: a tool result that held it is still in the final context as a changed
 * copy, recognised by its tool call id (`shortened`: truncated, masked or cleared), or every message that
 * held it was removed (`dropped`: a pruned or skipped turn, a summarized span).
 */
export function lossReasons(
  lost: readonly Probe[],
  original: readonly Message[],
  final: readonly Message[],
): LostProbe[] {
  if (lost.length === 0) return [];
  const keptCallIds = new Set<string>();
  for (const message of final) {
    if (message.role === 'tool') for (const part of message.content) keptCallIds.add(part.toolCallId);
  }
  const shortenedTexts = original
    .filter(
      (message) =>
        message.role === 'tool' &&
        message.content.some((part) => keptCallIds.has(part.toolCallId)) &&
        !final.includes(message),
    )
    .map((message) => contextText([message]));
  return lost.map((probe) => ({
    probe,
    reason: shortenedTexts.some((text) => text.includes(probe.text)) ? 'shortened' : 'dropped',
  }));
}
