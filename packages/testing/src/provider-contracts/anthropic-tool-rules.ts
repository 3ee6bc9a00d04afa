import {
  type AnthropicBlock,
  type AnthropicTurn,
  anthropicServerToolResultTypes,
  blockType,
} from './anthropic-turns.js';
import type { ContractViolation } from './contract-violation.js';
import { type JSONRecord, recordField, stringField } from './json-record.js';

/**
 * Client tool calls: every `tool_use` answered by a `tool_result` in the next (user) turn, results first in
 * their turn and never without their call, ids unique, and `tools` defined when any of them appear.
 */
export function anthropicClientToolViolations(
  request: JSONRecord,
  turns: readonly AnthropicTurn[],
): ContractViolation[] {
  const violations: ContractViolation[] = [];
  const report = (rule: string, path: string, message: string) => violations.push({ rule, path, message });
  const answered = new Set<string>();
  let firstToolBlock: AnthropicBlock | undefined;
  turns.forEach((turn, turnIndex) => {
    const uses = turn.blocks.filter((located) => blockType(located) === 'tool_use');
    const results = turn.blocks.filter((located) => blockType(located) === 'tool_result');
    firstToolBlock ??= uses[0] ?? results[0];
    if (turn.role === 'assistant' && uses.length > 0) {
      const next = turns[turnIndex + 1];
      if (next !== undefined) {
        const answers = new Set(
          next.role === 'user'
            ? next.blocks.filter((located) => blockType(located) === 'tool_result').map(toolUseIdOf)
            : [],
        );
        for (const use of uses) {
          const id = idOf(use);
          if (!answers.has(id)) {
            report(
              'anthropic.tool-use-answered',
              use.path,
              `tool_use ${id} has no tool_result in the turn right after it`,
            );
          }
        }
      }
    }
    if (results.length === 0) return;
    const previous = turns[turnIndex - 1];
    const calls = new Set(
      turn.role === 'user' && previous?.role === 'assistant'
        ? previous.blocks.filter((located) => blockType(located) === 'tool_use').map(idOf)
        : [],
    );
    let otherContent: AnthropicBlock | undefined;
    for (const located of turn.blocks) {
      if (blockType(located) !== 'tool_result') {
        otherContent ??= located;
        continue;
      }
      const id = toolUseIdOf(located);
      if (otherContent !== undefined) {
        report(
          'anthropic.tool-results-first',
          located.path,
          `tool_result ${id} comes after other content (${otherContent.path}); results must open their turn`,
        );
      }
      if (!calls.has(id)) {
        report(
          'anthropic.tool-result-has-call',
          located.path,
          `tool_result ${id} answers no tool_use of the assistant turn right before it`,
        );
      } else if (answered.has(id)) {
        report('anthropic.unique-ids', located.path, `tool_use ${id} is answered more than once`);
      }
      answered.add(id);
    }
  });
  const tools = request.tools;
  if (firstToolBlock !== undefined && !(Array.isArray(tools) && tools.length > 0)) {
    report(
      'anthropic.tools-defined',
      firstToolBlock.path,
      'the request holds tool_use or tool_result blocks but defines no `tools`',
    );
  }
  return violations;
}

interface OpenCall {
  located: AnthropicBlock;
  answered: boolean;
}

/**
 * Calls the API runs itself (`server_tool_use`, `mcp_tool_use`) and the calls code execution makes
 * (`caller.tool_id`): every result after its call, every call answered before the turn ends, callers known.
 */
export function anthropicServerToolViolations(turns: readonly AnthropicTurn[]): ContractViolation[] {
  const violations: ContractViolation[] = [];
  const report = (rule: string, path: string, message: string) => violations.push({ rule, path, message });
  const serverCalls = new Map<string, OpenCall>();
  const mcpCalls = new Map<string, OpenCall>();
  const callIds = new Set<string>();
  for (const located of turns.flatMap((turn) => turn.blocks)) {
    const type = blockType(located);
    if (type === 'tool_use' || type === 'server_tool_use' || type === 'mcp_tool_use') {
      const id = idOf(located);
      if (callIds.has(id)) report('anthropic.unique-ids', located.path, `the call id ${id} is used twice`);
      callIds.add(id);
      if (type === 'server_tool_use') serverCalls.set(id, { located, answered: false });
      if (type === 'mcp_tool_use') mcpCalls.set(id, { located, answered: false });
    }
    if (anthropicServerToolResultTypes.has(type)) {
      answer(serverCalls, located, 'anthropic.server-tool-result-has-call', 'server_tool_use');
    } else if (type === 'mcp_tool_result') {
      answer(mcpCalls, located, 'anthropic.mcp-tool-result-has-call', 'mcp_tool_use');
    }
    const caller = recordField(located.block, 'caller');
    const callerId = caller === undefined ? undefined : stringField(caller, 'tool_id');
    if (callerId !== undefined && !serverCalls.has(callerId)) {
      report(
        'anthropic.caller-refers-to-server-tool',
        `${located.path}.caller`,
        `the caller ${callerId} is no server_tool_use earlier in the request`,
      );
    }
  }
  const turnEnds = turns
    .filter(
      (turn) => turn.role === 'user' && turn.blocks.some((located) => blockType(located) !== 'tool_result'),
    )
    .map((turn) => turn.messageIndexes[0]!);
  const unanswered = (calls: Map<string, OpenCall>, rule: string, kind: string) => {
    for (const [id, call] of calls) {
      if (call.answered) continue;
      const end = turnEnds.find((index) => index > call.located.messageIndex);
      if (end !== undefined) {
        report(
          rule,
          call.located.path,
          `${kind} ${id} has no result before the turn ends at messages[${end}]`,
        );
      }
    }
  };
  unanswered(serverCalls, 'anthropic.server-tool-use-answered', 'server_tool_use');
  unanswered(mcpCalls, 'anthropic.mcp-tool-use-answered', 'mcp_tool_use');
  return violations;

  function answer(calls: Map<string, OpenCall>, located: AnthropicBlock, rule: string, kind: string): void {
    const id = toolUseIdOf(located);
    const call = calls.get(id);
    if (call === undefined) {
      report(rule, located.path, `${blockType(located)} ${id} has no ${kind} before it`);
    } else if (call.answered) {
      report('anthropic.unique-ids', located.path, `${kind} ${id} is answered more than once`);
    } else {
      call.answered = true;
    }
  }
}

function idOf(located: AnthropicBlock): string {
  return stringField(located.block, 'id') ?? '';
}

function toolUseIdOf(located: AnthropicBlock): string {
  return stringField(located.block, 'tool_use_id') ?? '';
}
