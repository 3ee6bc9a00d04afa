import fc from 'fast-check';
import type { IdSource } from './id-source.js';
import type { JSONRecord } from './json-record.js';
import {
  type ResponsesRound,
  type ResponsesRoundKind,
  responsesRoundItems,
  responsesRoundKinds,
} from './openai-responses-round-items.js';
import {
  type ConversationPlan,
  providerRequestArbitrary,
  resultTextFor,
} from './provider-request-arbitrary.js';
import type { ProviderRequestArbitrarySettings } from './provider-request-arbitrary-settings.js';
import { noneOrOneOf, occasionally, proseArbitrary, sometimes } from './request-text-arbitrary.js';

type Attachment = 'none' | 'image' | 'file';

interface FollowUp {
  text: string;
  attachment: Attachment;
  form: 'easy' | 'message';
  extra: 'none' | 'additional-tools' | 'item-reference';
}

interface Plan extends ConversationPlan<ResponsesRound, ResponsesRound, FollowUp> {
  instructions: string;
  developer: string | null;
  developerAsSystemMessage: boolean;
  /**
   * Codex's opening: developer messages (its permissions and its instructions) and a user message holding
   * `<environment_context>` before the task, with the text each holds.
   */
  agentOpening: { permissions: string; instructions: string; environment: string } | null;
  compacted: boolean;
  task: string;
  attachment: Attachment;
  newestAsString: boolean;
  compactionTrigger: boolean;
}

const attachmentArbitrary = noneOrOneOf<Attachment>(['image', 'file']);

/**
 * Generates valid OpenAI Responses requests of long agent conversations: instructions, developer messages (now
 * and then Codex's opening: two developer messages and a user message holding `<environment_context>` before
 * the task), an earlier compaction, an original task with images or files, rounds of every input item type (reasoning with
 * `encrypted_content` before the items it came with; function, custom, computer, local shell, shell and
 * apply_patch calls with their outputs; web and file search, code interpreter and image generation calls; MCP
 * tool lists, approvals and calls; tool search; programs whose calls name them as `caller`; assistant messages
 * with annotations or refusals), user follow-ups (with additional tools or item references now and then) and a
 * newest user request. Every request passes {@link openAIResponsesViolations}.
 */
export function openAIResponsesRequestArbitrary(
  settings: ProviderRequestArbitrarySettings = {},
): fc.Arbitrary<JSONRecord> {
  const resultText = resultTextFor(settings);
  const roundOf = (kinds: readonly ResponsesRoundKind[]): fc.Arbitrary<ResponsesRound> =>
    fc.record({
      kind: fc.constantFrom(...kinds),
      reasoning: proseArbitrary(20),
      text: proseArbitrary(),
      result: resultText,
      variant: fc.nat({ max: 5 }),
    });
  const followUp: fc.Arbitrary<FollowUp> = fc.record({
    text: proseArbitrary(),
    attachment: attachmentArbitrary,
    form: fc.constantFrom<'easy' | 'message'>('easy', 'message'),
    extra: fc.oneof(
      { weight: 8, arbitrary: fc.constant<'none'>('none') },
      {
        weight: 1,
        arbitrary: fc.constantFrom<'additional-tools' | 'item-reference'>(
          'additional-tools',
          'item-reference',
        ),
      },
    ),
  });
  const plan = fc.record({
    instructions: proseArbitrary(40),
    developer: occasionally(proseArbitrary(12), 2),
    developerAsSystemMessage: fc.boolean(),
    agentOpening: occasionally(
      fc.record({
        permissions: proseArbitrary(12),
        instructions: proseArbitrary(20),
        environment: proseArbitrary(8),
      }),
      3,
    ),
    compacted: sometimes(5),
    task: proseArbitrary(40),
    attachment: attachmentArbitrary,
    newestAsString: fc.boolean(),
    compactionTrigger: sometimes(8),
  });
  return providerRequestArbitrary(
    settings,
    {
      plan,
      round: roundOf(responsesRoundKinds),
      finalLoop: roundOf(['function', 'custom', 'shell', 'apply-patch', 'computer', 'local-shell']),
      followUp,
    },
    buildRequest,
  );
}

function buildRequest(plan: Plan, ids: IdSource): JSONRecord {
  const input: JSONRecord[] = [];
  if (plan.developer !== null) {
    input.push(
      plan.developerAsSystemMessage
        ? { type: 'message', role: 'system', content: [{ type: 'input_text', text: plan.developer }] }
        : { role: 'developer', content: plan.developer },
    );
  }
  if (plan.agentOpening !== null) {
    const { permissions, instructions, environment } = plan.agentOpening;
    const developerText = (text: string) => ({
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text }],
    });
    input.push(developerText(`<permissions instructions>\n${permissions}\n</permissions instructions>`));
    input.push(developerText(instructions));
    input.push({
      type: 'message',
      role: 'user',
      content: [
        {
          type: 'input_text',
          text: `<environment_context>\n  <cwd>/repo</cwd>\n  ${environment}\n</environment_context>`,
        },
      ],
    });
  }
  if (plan.compacted) input.push({ type: 'compaction', id: ids.next('cmp'), encrypted_content: ids.token() });
  input.push(userMessage(plan.task, plan.attachment, 'message', ids));
  for (const { round, followUp } of plan.rounds) {
    if (endsTheTurn(input.at(-1))) {
      if (followUp.extra === 'additional-tools') {
        input.push({
          type: 'additional_tools',
          role: 'developer',
          tools: [
            { type: 'function', name: 'lint', parameters: { type: 'object', properties: {} }, strict: false },
          ],
        });
      }
      if (followUp.extra === 'item-reference')
        input.push({ type: 'item_reference', id: ids.next('msg_stored') });
      input.push(userMessage(followUp.text, followUp.attachment, followUp.form, ids));
    }
    input.push(...responsesRoundItems(round, plan.thinking, ids));
  }
  input.push(
    plan.newestAsString
      ? { role: 'user', content: plan.newest }
      : userMessage(plan.newest, 'none', 'message', ids),
  );
  if (plan.endsInToolLoop) input.push(...responsesRoundItems(plan.finalLoop, plan.thinking, ids));
  if (plan.compactionTrigger) input.push({ type: 'compaction_trigger' });
  return {
    model: 'gpt-5',
    instructions: plan.instructions,
    input,
    tools: [
      { type: 'function', name: 'read_file', parameters: { type: 'object', properties: {} }, strict: false },
      { type: 'custom', name: 'apply_diff' },
      { type: 'shell' },
      { type: 'apply_patch' },
      { type: 'web_search' },
      {
        type: 'mcp',
        server_label: 'docs',
        server_url: 'https://mcp.example.com/sse',
        require_approval: 'always',
      },
    ],
    store: false,
    ...(plan.thinking ? { reasoning: { effort: 'medium' }, include: ['reasoning.encrypted_content'] } : {}),
  };
}

/** Whether the model's turn is over after `item`: an assistant message or an approval request it waits on. */
function endsTheTurn(item: JSONRecord | undefined): boolean {
  if (item === undefined) return false;
  if (item.type === 'mcp_approval_request') return true;
  return item.role === 'assistant';
}

function userMessage(
  text: string,
  attachment: Attachment,
  form: 'easy' | 'message',
  ids: IdSource,
): JSONRecord {
  const parts: Record<Attachment, JSONRecord[]> = {
    none: [],
    image: [{ type: 'input_image', detail: 'auto', image_url: 'https://example.com/screenshot.png' }],
    file: [{ type: 'input_file', file_id: ids.next('file'), filename: 'report.pdf' }],
  };
  if (form === 'easy' && attachment === 'none') return { role: 'user', content: text };
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }, ...parts[attachment]] };
}
