import type { Message } from '../messages/message.js';
import { defaultPlanTools, type PlanStateOptions } from './plan-tools.js';

/**
 * The indexes, in order, of the messages that hold the latest plan or todo state: the assistant message with
 * the latest call of one of the plan tools, and the tool messages right after it that answer that call. Empty
 * when the history holds no such call. The call carries the whole plan, so an unanswered one (tools still
 * running) is still the latest state, with no result to add.
 */
export function findPlanState(messages: readonly Message[], options: PlanStateOptions = {}): number[] {
  const tools = new Set(options.tools ?? defaultPlanTools);
  if (tools.size === 0) return [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    const call = message.content.findLast((part) => part.type === 'tool-call' && tools.has(part.toolName));
    if (call?.type !== 'tool-call') continue;
    const indexes = [index];
    // Results stand in the tool messages right after their call, before the next message of another role.
    for (let after = index + 1; after < messages.length && messages[after]!.role === 'tool'; after++) {
      const results = messages[after]!.content;
      if (results.some((part) => part.type === 'tool-result' && part.toolCallId === call.toolCallId)) {
        indexes.push(after);
      }
    }
    return indexes;
  }
  return [];
}
