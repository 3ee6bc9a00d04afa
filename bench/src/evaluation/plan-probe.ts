import type { JSONValue, Message, ToolCallPart } from '@compaction/core';
import { contextText } from './context-text.js';
import { normalizeText } from './probe.js';

/** The plan/todo tools the probe reads: Claude Code's `TodoWrite`, Codex's `update_plan`, opencode's `todowrite`. */
export const planToolNames: readonly string[] = ['TodoWrite', 'update_plan', 'todowrite', 'write_todos'];

/** The statuses the plan tools give an item. */
export const planStatuses: readonly string[] = ['pending', 'in_progress', 'completed'];

/** One item of a plan: its text and its status. */
export interface PlanItem {
  text: string;
  status: string;
}

/** How many items of a plan a context still holds with their status. */
export interface PlanRetention {
  total: number;
  kept: number;
  lost: PlanItem[];
}

/** The items of a plan tool call (`todos[].content` or `plan[].step`, with `status`), none when it is not one. */
export function planItemsOf(call: ToolCallPart): PlanItem[] {
  if (!planToolNames.includes(call.toolName)) return [];
  const input = call.input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return [];
  const list = input.todos ?? input.plan;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    const record = asRecord(item);
    const text = record?.content ?? record?.step;
    const status = record?.status;
    if (typeof text !== 'string' || typeof status !== 'string') return [];
    const normalized = normalizeText(text);
    return normalized.length === 0 ? [] : [{ text: normalized, status }];
  });
}

/** The items of the latest plan tool call in `messages`, or none when there is no plan. */
export function latestPlan(messages: readonly Message[]): PlanItem[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    for (const part of [...message.content].reverse()) {
      if (part.type !== 'tool-call' || !planToolNames.includes(part.toolName)) continue;
      return planItemsOf(part);
    }
  }
  return [];
}

/**
 * Which items of `plan` a context still tells, with their status: an item is kept when its text is present and
 * the first status word after its last occurrence is its status (as it reads in the plan call's input, or in a
 * summary that lists the item with its status). An older plan left in the context, with the item at another
 * status, does not count.
 */
export function measurePlanRetention(plan: readonly PlanItem[], context: readonly Message[]): PlanRetention {
  const text = contextText(context);
  const lost = plan.filter((item) => statusAfter(text, item.text) !== item.status);
  return { total: plan.length, kept: plan.length - lost.length, lost };
}

const statusWord = new RegExp(`\\b(${planStatuses.join('|')})\\b`);

function statusAfter(text: string, itemText: string): string | undefined {
  const at = text.lastIndexOf(itemText);
  if (at === -1) return undefined;
  return statusWord.exec(text.slice(at + itemText.length))?.[1];
}

function asRecord(value: JSONValue): Record<string, JSONValue | undefined> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}
