import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { InvalidMessagesError, type JSONObject, type Message } from '@compaction/core';
import { openAIResponsesViolations } from '@compaction/testing';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { fromOpenAIResponsesInput } from './from-openai-responses-input.js';
import { toOpenAIResponsesInput } from './to-openai-responses-input.js';

/** Every `type` an item of the installed SDK's Responses input union can have. */
type InputItemType = NonNullable<ResponseInputItem['type']>;

/**
 * How an item pairs with others in a Responses input:
 * - `message`: a message, paired with nothing;
 * - `client call`: a call the client runs, answered by an item of type `pairsWith` naming it (by `call_id`; an
 *   MCP approval request by `id`); unanswered, the API refuses the next request (`answerRequired`, except an
 *   MCP approval request, which the validator lets go unanswered);
 * - `answer`: the item answering a call of type `pairsWith`; alone, it answers one of an earlier response;
 * - `server call`: run by the server, with an answer of type `pairsWith` in the input or not (a tool search the
 *   server ran, a program);
 * - `server`: made or run by the server (or a reference to stored items), needing no answer.
 * A tool search is the client's call (and answer) with `execution: "client"`, the server's otherwise.
 */
type PairingRule =
  | { rule: 'message' | 'server' }
  | { rule: 'client call'; pairsWith: InputItemType; answerRequired: boolean }
  | { rule: 'answer' | 'server call'; pairsWith: InputItemType };

/** An item of a type, with its rule, and where it may stand (`last`: only as the final item). */
type Variant = PairingRule & { item: JSONObject; last?: boolean; followedBy?: JSONObject };

const assistantMessage: JSONObject = {
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
};

/** Each item type of the SDK's union with items of the type (the variants the SDK and the API accept). */
const itemTypes: Record<InputItemType, Variant[]> = {
  message: [
    {
      rule: 'message',
      item: { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be brief.' }] },
    },
    { rule: 'message', item: { ...assistantMessage, id: 'msg_1', status: 'completed' } },
  ],
  function_call: [
    {
      rule: 'client call',
      pairsWith: 'function_call_output',
      answerRequired: true,
      item: { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{"path":"a.ts"}' },
    },
  ],
  function_call_output: [
    {
      rule: 'answer',
      pairsWith: 'function_call',
      item: { type: 'function_call_output', call_id: 'call_1', output: 'export {};' },
    },
  ],
  custom_tool_call: [
    {
      rule: 'client call',
      pairsWith: 'custom_tool_call_output',
      answerRequired: true,
      item: { type: 'custom_tool_call', call_id: 'call_1', name: 'grep', input: 'TODO' },
    },
  ],
  custom_tool_call_output: [
    {
      rule: 'answer',
      pairsWith: 'custom_tool_call',
      item: { type: 'custom_tool_call_output', call_id: 'call_1', output: 'a.ts:1' },
    },
  ],
  computer_call: [
    {
      rule: 'client call',
      pairsWith: 'computer_call_output',
      answerRequired: true,
      item: {
        type: 'computer_call',
        id: 'cu_1',
        call_id: 'call_1',
        action: { type: 'screenshot' },
        pending_safety_checks: [],
        status: 'completed',
      },
    },
  ],
  computer_call_output: [
    {
      rule: 'answer',
      pairsWith: 'computer_call',
      item: {
        type: 'computer_call_output',
        call_id: 'call_1',
        output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AAAA' },
      },
    },
  ],
  local_shell_call: [
    {
      rule: 'client call',
      pairsWith: 'local_shell_call_output',
      answerRequired: true,
      item: {
        type: 'local_shell_call',
        id: 'lsh_1',
        call_id: 'call_1',
        status: 'completed',
        action: { type: 'exec', command: ['ls'], env: {} },
      },
    },
  ],
  local_shell_call_output: [
    // As the SDK's type has it: the call named by `id`.
    {
      rule: 'answer',
      pairsWith: 'local_shell_call',
      item: { type: 'local_shell_call_output', id: 'call_1', output: 'a.ts' },
    },
    // As the API and the AI SDK send it.
    {
      rule: 'answer',
      pairsWith: 'local_shell_call',
      item: { type: 'local_shell_call_output', call_id: 'call_1', output: 'a.ts' },
    },
  ],
  shell_call: [
    {
      rule: 'client call',
      pairsWith: 'shell_call_output',
      answerRequired: true,
      item: { type: 'shell_call', call_id: 'call_1', action: { commands: ['ls'] } },
    },
  ],
  shell_call_output: [
    {
      rule: 'answer',
      pairsWith: 'shell_call',
      item: {
        type: 'shell_call_output',
        call_id: 'call_1',
        output: [{ stdout: 'a.ts', stderr: '', outcome: { type: 'exit', exit_code: 0 } }],
      },
    },
  ],
  apply_patch_call: [
    {
      rule: 'client call',
      pairsWith: 'apply_patch_call_output',
      answerRequired: true,
      item: {
        type: 'apply_patch_call',
        call_id: 'call_1',
        status: 'completed',
        operation: { type: 'update_file', path: 'a.ts', diff: '@@\n-a\n+b' },
      },
    },
  ],
  apply_patch_call_output: [
    {
      rule: 'answer',
      pairsWith: 'apply_patch_call',
      item: { type: 'apply_patch_call_output', call_id: 'call_1', status: 'completed', output: 'patched' },
    },
  ],
  mcp_approval_request: [
    {
      rule: 'client call',
      pairsWith: 'mcp_approval_response',
      answerRequired: false,
      item: {
        type: 'mcp_approval_request',
        id: 'call_1',
        server_label: 'files',
        name: 'delete',
        arguments: '{"path":"a.ts"}',
      },
    },
  ],
  mcp_approval_response: [
    {
      rule: 'answer',
      pairsWith: 'mcp_approval_request',
      item: { type: 'mcp_approval_response', approval_request_id: 'call_1', approve: true },
    },
  ],
  tool_search_call: [
    {
      rule: 'client call',
      pairsWith: 'tool_search_output',
      answerRequired: true,
      item: {
        type: 'tool_search_call',
        call_id: 'call_1',
        execution: 'client',
        arguments: { query: 'files' },
      },
    },
    // Run by the server: the input may hold its output, or not.
    {
      rule: 'server call',
      pairsWith: 'tool_search_output',
      item: {
        type: 'tool_search_call',
        id: 'ts_1',
        call_id: 'call_1',
        execution: 'server',
        status: 'completed',
        arguments: { query: 'files' },
      },
    },
    { rule: 'server', item: { type: 'tool_search_call', id: 'ts_1', arguments: { query: 'files' } } },
  ],
  tool_search_output: [
    {
      rule: 'answer',
      pairsWith: 'tool_search_call',
      item: { type: 'tool_search_output', call_id: 'call_1', execution: 'client', tools: [] },
    },
    {
      rule: 'answer',
      pairsWith: 'tool_search_call',
      item: {
        type: 'tool_search_output',
        id: 'tso_1',
        call_id: 'call_1',
        execution: 'server',
        status: 'completed',
        tools: [],
      },
    },
  ],
  program: [
    {
      rule: 'server call',
      pairsWith: 'program_output',
      item: { type: 'program', id: 'prg_1', call_id: 'call_1', code: 'print(1)' },
    },
  ],
  program_output: [
    {
      rule: 'answer',
      pairsWith: 'program',
      item: { type: 'program_output', id: 'prgo_1', call_id: 'call_1', output: '1' },
    },
  ],
  file_search_call: [
    {
      rule: 'server',
      item: { type: 'file_search_call', id: 'fs_1', queries: ['parser'], status: 'completed' },
    },
  ],
  web_search_call: [
    {
      rule: 'server',
      item: {
        type: 'web_search_call',
        id: 'ws_1',
        status: 'completed',
        action: { type: 'search', query: 'parser' },
      },
    },
  ],
  image_generation_call: [
    {
      rule: 'server',
      item: { type: 'image_generation_call', id: 'ig_1', result: null, status: 'completed' },
    },
  ],
  code_interpreter_call: [
    {
      rule: 'server',
      item: {
        type: 'code_interpreter_call',
        id: 'ci_1',
        code: 'print(1)',
        container_id: 'cntr_1',
        outputs: [{ type: 'logs', logs: '1' }],
        status: 'completed',
      },
    },
  ],
  mcp_list_tools: [
    { rule: 'server', item: { type: 'mcp_list_tools', id: 'mcpl_1', server_label: 'files', tools: [] } },
  ],
  mcp_call: [
    {
      rule: 'server',
      item: {
        type: 'mcp_call',
        id: 'mcp_1',
        server_label: 'files',
        name: 'list',
        arguments: '{}',
        output: 'a.ts',
      },
    },
  ],
  // Reasoning comes with the item it was for.
  reasoning: [
    {
      rule: 'server',
      item: { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Reading.' }] },
      followedBy: assistantMessage,
    },
  ],
  compaction: [{ rule: 'server', item: { type: 'compaction', id: 'cmp_1', encrypted_content: 'opaque' } }],
  compaction_trigger: [{ rule: 'server', item: { type: 'compaction_trigger' }, last: true }],
  additional_tools: [{ rule: 'server', item: { type: 'additional_tools', tools: [] } }],
  item_reference: [{ rule: 'server', item: { type: 'item_reference', id: 'msg_0' } }],
};

/**
 * The item types of `ResponseInputItem` in the installed SDK's declarations, read with the TypeScript
 * checker: the literal types of each member's `type` field.
 */
function sdkInputItemTypes(): string[] {
  const require = createRequire(import.meta.url);
  const declarations = join(
    dirname(require.resolve('openai/resources/responses/responses')),
    'responses.d.ts',
  );
  expect(readFileSync(declarations, 'utf8')).toContain('export type ResponseInputItem =');
  const program = ts.createProgram([declarations], { noEmit: true, noResolve: true, noLib: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(declarations)!;
  const alias = source.statements.find(
    (statement): statement is ts.TypeAliasDeclaration =>
      ts.isTypeAliasDeclaration(statement) && statement.name.text === 'ResponseInputItem',
  )!;
  const union = checker.getTypeAtLocation(alias.name);
  const types = new Set<string>();
  for (const member of union.isUnion() ? union.types : [union]) {
    const field = member.getProperty('type');
    expect(field, checker.typeToString(member)).toBeDefined();
    const fieldType = checker.getNonNullableType(checker.getTypeOfSymbol(field!));
    for (const literal of fieldType.isUnion() ? fieldType.types : [fieldType]) {
      expect(literal.isStringLiteral(), checker.typeToString(literal)).toBe(true);
      types.add((literal as ts.StringLiteralType).value);
    }
  }
  return [...types].sort();
}

const user = (text: string): JSONObject => ({ role: 'user', content: text });

/** What the converter does with an input: its messages, and whether it comes back byte for byte. */
function convert(input: JSONObject[]): Message[] {
  const messages = fromOpenAIResponsesInput(input as never);
  expect(JSON.stringify(toOpenAIResponsesInput(messages))).toBe(JSON.stringify(input));
  return messages;
}

/** The parts of every message, as strategies see them. */
const parts = (messages: Message[]): Array<{ type: string; toolCallId?: string }> =>
  messages.flatMap((message) => (typeof message.content === 'string' ? [] : [...message.content]));
const violationsOf = (input: JSONObject[]) => openAIResponsesViolations({ model: 'gpt-5', input });

/** What converting `input` to core messages and back throws (`undefined` if nothing). */
function conversionError(input: JSONObject[]): unknown {
  try {
    toOpenAIResponsesInput(fromOpenAIResponsesInput(input as never));
    return undefined;
  } catch (error) {
    return error;
  }
}

/** A conversation around `items`: a user request before, and one after unless the last must be last. */
function around(items: JSONObject[], last = false): JSONObject[] {
  return [user('Go on.'), ...items, ...(last ? [] : [user('Next.')])];
}

/** The variants of `type` whose rule is `rule`, with the same `execution` as `like` (tool searches). */
function partners(type: InputItemType, rule: Variant['rule'], like: JSONObject): Variant[] {
  return itemTypes[type].filter(
    (variant) => variant.rule === rule && variant.item.execution === like.execution,
  );
}

const entries = Object.entries(itemTypes) as Array<[InputItemType, Variant[]]>;

describe("Responses input items: each type of the SDK's union with its pairing rule", () => {
  it('lists every item type of the installed SDK, and no other', () => {
    expect(Object.keys(itemTypes).sort()).toEqual(sdkInputItemTypes());
  });

  for (const [type, variants] of entries) {
    it(`${type}: ${[...new Set(variants.map((variant) => variant.rule))].join(', ')}`, () => {
      for (const variant of variants) {
        const { item } = variant;
        const what = JSON.stringify(item);
        const alone = around([item, ...(variant.followedBy ? [variant.followedBy] : [])], variant.last);
        if (variant.rule === 'client call') {
          const answers = partners(variant.pairsWith, 'answer', item);
          expect(answers.length, what).toBeGreaterThan(0);
          for (const answer of answers) {
            expect(answer).toMatchObject({ pairsWith: type });
            const input = around([item, answer.item]);
            const found = parts(convert(input));
            // The converter pairs them as a tool call and its result; the API takes them.
            expect(found.filter((part) => part.type === 'tool-call' || part.type === 'tool-result')).toEqual([
              expect.objectContaining({ type: 'tool-call', toolCallId: 'call_1' }),
              expect.objectContaining({ type: 'tool-result', toolCallId: 'call_1' }),
            ]);
            expect(violationsOf(input), JSON.stringify(input)).toEqual([]);
          }
          if (variant.answerRequired) {
            // Unanswered before the next request: the API refuses it, and so does the converter.
            expect(
              violationsOf(alone).map((violation) => violation.rule),
              what,
            ).toContain('openai-responses.call-answered');
            expect(InvalidMessagesError.isInstance(conversionError(alone)), what).toBe(true);
          } else {
            // The contract checks let an approval request go unanswered; the converter still refuses one
            // followed by another message (core has no unanswered tool call there), so it is not checked here.
            expect(violationsOf(alone), what).toEqual([]);
          }
        } else if (variant.rule === 'answer') {
          // Alone, it answers a call of an earlier response: kept as the application sent it, no tool result.
          const found = parts(convert(alone));
          expect(
            found.some((part) => part.type === 'tool-result'),
            what,
          ).toBe(false);
          expect(violationsOf(alone).length, what).toBeGreaterThan(0);
          expect(violationsOf([{ type: 'item_reference', id: 'msg_0' }, ...alone]), what).toEqual([]);
        } else {
          // Run by the server (or a message): kept as it came and valid alone; a call also with its answer,
          // which keeps the pair whole (as a tool call and result, or both as they came).
          expect(
            parts(convert(alone)).some((part) => part.type === 'tool-call' || part.type === 'tool-result'),
          ).toBe(false);
          expect(violationsOf(alone), what).toEqual([]);
          if (variant.rule === 'server call') {
            const answers = partners(variant.pairsWith, 'answer', item);
            expect(answers.length, what).toBeGreaterThan(0);
            for (const answer of answers) {
              const input = around([item, answer.item]);
              const found = parts(convert(input));
              const paired = found.filter((part) => part.type === 'tool-call' || part.type === 'tool-result');
              expect(paired.length === 0 || paired.length === 2, JSON.stringify(input)).toBe(true);
              expect(violationsOf(input), JSON.stringify(input)).toEqual([]);
            }
          }
        }
      }
    });
  }
});
