import type { ContractViolation } from './contract-violation.js';
import { isJSONRecord, type JSONRecord, stringField } from './json-record.js';
import { openAIChatPartsByRole, openAIChatShapeViolations } from './openai-chat-request-shape.js';

/**
 * Checks an OpenAI Chat Completions request (`{ model?, messages, tools?, ... }`, plain JSON) against the rules
 * of `docs/provider-contracts.md` and lists what it breaks; empty when the API should accept it. Unknown part
 * and tool call types pass; a malformed shape is reported (and stops the other checks), never thrown.
 */
export function openAIChatViolations(request: unknown): ContractViolation[] {
  const shape = openAIChatShapeViolations(request);
  if (shape.length > 0) return shape;
  const messages = (request as JSONRecord).messages as JSONRecord[];
  const violations: ContractViolation[] = [];
  const report = (rule: string, path: string, message: string) => violations.push({ rule, path, message });
  const callIds = new Set<string>();
  /** The calls of the assistant message the current run of tool messages answers, with their paths. */
  let open: Map<string, { path: string; answered: boolean }> | undefined;
  const closeOpenCalls = () => {
    for (const [id, call] of open ?? []) {
      if (!call.answered) {
        report(
          'openai-chat.tool-calls-answered',
          call.path,
          `tool call ${id} has no tool message before the next non-tool message`,
        );
      }
    }
    open = undefined;
  };
  messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    const role = message.role as string;
    checkParts(message, role, path, report);
    if (role === 'tool') {
      const id = message.tool_call_id as string;
      const call = open?.get(id);
      if (open === undefined) {
        report(
          'openai-chat.tool-message-follows-call',
          path,
          `tool message for ${id} does not follow an assistant message with tool_calls`,
        );
      } else if (call === undefined) {
        report(
          'openai-chat.tool-message-follows-call',
          path,
          `tool message for ${id} answers none of the tool_calls of the assistant message before it`,
        );
      } else if (call.answered) {
        report('openai-chat.unique-tool-call-ids', path, `tool call ${id} is answered more than once`);
      } else {
        call.answered = true;
      }
      return;
    }
    closeOpenCalls();
    if (role === 'function') {
      const previous = messages[index - 1];
      const functionCall = previous?.role === 'assistant' ? previous.function_call : undefined;
      if (!isJSONRecord(functionCall) || functionCall.name !== message.name) {
        report(
          'openai-chat.function-message-follows-call',
          path,
          `function message ${String(message.name)} does not follow an assistant function_call of that name`,
        );
      }
      return;
    }
    if (role !== 'assistant') return;
    const toolCalls = Array.isArray(message.tool_calls) ? (message.tool_calls as JSONRecord[]) : [];
    const hasContent = message.content !== undefined && message.content !== null;
    const hasFunctionCall = message.function_call !== undefined && message.function_call !== null;
    // A refusal or an audio answer comes back from the model with null content, and goes back the same way.
    const answeredOtherwise = typeof message.refusal === 'string' || message.audio != null;
    if (!hasContent && toolCalls.length === 0 && !hasFunctionCall && !answeredOtherwise) {
      report(
        'openai-chat.assistant-content-required',
        path,
        'an assistant message needs content unless it has tool_calls, a function_call, a refusal or audio',
      );
    }
    if (toolCalls.length === 0) return;
    open = new Map();
    toolCalls.forEach((call, callIndex) => {
      const id = stringField(call, 'id')!;
      const callPath = `${path}.tool_calls[${callIndex}]`;
      if (callIds.has(id))
        report('openai-chat.unique-tool-call-ids', callPath, `the tool call id ${id} is used twice`);
      callIds.add(id);
      open!.set(id, { path: callPath, answered: false });
    });
  });
  closeOpenCalls();
  return violations;
}

function checkParts(
  message: JSONRecord,
  role: string,
  path: string,
  report: (rule: string, path: string, message: string) => void,
): void {
  if (!Array.isArray(message.content)) return;
  const allowed = openAIChatPartsByRole[role]!;
  (message.content as JSONRecord[]).forEach((part, index) => {
    const type = part.type as string;
    if (knownPartTypes.has(type) && !allowed.has(type)) {
      report(
        'openai-chat.content-part-allowed',
        `${path}.content[${index}]`,
        `a ${role} message may not carry ${type} parts`,
      );
    }
  });
}

const knownPartTypes = new Set(Object.values(openAIChatPartsByRole).flatMap((types) => [...types]));
