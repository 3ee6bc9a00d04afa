import type Anthropic from '@anthropic-ai/sdk';

/** One of Anthropic's context-management edits: `clear_tool_uses_20250919`, `clear_thinking_20251015`, `compact_20260112`. */
export type AnthropicContextEdit = NonNullable<Anthropic.Beta.BetaContextManagementConfig['edits']>[number];

/**
 * Anthropic's own context management, applied by the API to every request of a conversation: tool-result
 * clearing (`clear_tool_uses_20250919`), thinking clearing (`clear_thinking_20251015`) and server-side
 * compaction (`compact_20260112`). The requests then go through the SDK's beta Messages API with the beta
 * flags the edits need. Compaction blocks the API returns stay in the history verbatim and are sent back as
 * they came.
 */
export interface AnthropicContextManagement {
  /** The edits, in the SDK's own shape (`BetaContextManagementConfig['edits']`). */
  edits: AnthropicContextEdit[];
}

/** The beta flags the edits need: `context-management-2025-06-27` for clearing, `compact-2026-01-12` for compaction. */
export function contextManagementBetas(
  edits: readonly AnthropicContextEdit[],
): Anthropic.Beta.AnthropicBeta[] {
  const betas = new Set<Anthropic.Beta.AnthropicBeta>();
  for (const edit of edits) {
    betas.add(edit.type === 'compact_20260112' ? 'compact-2026-01-12' : 'context-management-2025-06-27');
  }
  return [...betas];
}
