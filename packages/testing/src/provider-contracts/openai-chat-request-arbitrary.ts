import fc from 'fast-check';
import type { IdSource } from './id-source.js';
import type { JSONRecord } from './json-record.js';
import {
  type ConversationPlan,
  providerRequestArbitrary,
  resultTextFor,
} from './provider-request-arbitrary.js';
import type { ProviderRequestArbitrarySettings } from './provider-request-arbitrary-settings.js';
import { noneOrOneOf, proseArbitrary, sometimes } from './request-text-arbitrary.js';

const functionNames = ['read_file', 'bash', 'search_code', 'run_tests'];

type Attachment = 'none' | 'image' | 'audio' | 'file';

interface Call {
  custom: boolean;
  name: string;
  argument: string;
  result: string;
  resultAsParts: boolean;
}

type Round =
  | { kind: 'tools'; content: 'none' | 'text' | 'parts'; text: string; calls: Call[] }
  | { kind: 'legacy-function'; name: string; argument: string; result: string }
  | { kind: 'answer'; form: 'text' | 'parts' | 'refusal' | 'refusal-part' | 'audio'; text: string };

interface FollowUp {
  text: string;
  attachment: Attachment;
  named: boolean;
}

interface Plan extends ConversationPlan<Round, Round & { kind: 'tools' }, FollowUp> {
  instructions: 'system' | 'developer' | 'both';
  instructionParts: boolean;
  system: string;
  task: string;
  attachment: Attachment;
}

const attachmentArbitrary = noneOrOneOf<Attachment>(['image', 'audio', 'file']);

/**
 * Generates valid OpenAI Chat Completions requests of long agent conversations: system and developer
 * instructions, an original task with images, audio or files, rounds of parallel function and custom tool calls
 * with tool messages of every size, legacy `function_call` answered by a `function` message, answers as text,
 * parts, refusals or audio, user follow-ups and a newest user request. Every request passes
 * {@link openAIChatViolations}.
 */
export function openAIChatRequestArbitrary(
  settings: ProviderRequestArbitrarySettings = {},
): fc.Arbitrary<JSONRecord> {
  const resultText = resultTextFor(settings);
  const call: fc.Arbitrary<Call> = fc.record({
    custom: sometimes(4),
    name: fc.constantFrom(...functionNames),
    argument: proseArbitrary(6),
    result: resultText,
    resultAsParts: sometimes(3),
  });
  const toolsRound = fc.record({
    kind: fc.constant('tools' as const),
    content: fc.constantFrom<'none' | 'text' | 'parts'>('none', 'text', 'parts'),
    text: proseArbitrary(),
    calls: fc.array(call, { minLength: 1, maxLength: 3 }),
  });
  const round: fc.Arbitrary<Round> = fc.oneof(
    { weight: 5, arbitrary: toolsRound },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('legacy-function' as const),
        name: fc.constantFrom(...functionNames),
        argument: proseArbitrary(6),
        result: resultText,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('answer' as const),
        form: fc.constantFrom<'text' | 'parts' | 'refusal' | 'refusal-part' | 'audio'>(
          'text',
          'text',
          'parts',
          'refusal',
          'refusal-part',
          'audio',
        ),
        text: proseArbitrary(30),
      }),
    },
  );
  const followUp = fc.record({
    text: proseArbitrary(),
    attachment: attachmentArbitrary,
    named: sometimes(5),
  });
  const plan = fc.record({
    instructions: fc.constantFrom<'system' | 'developer' | 'both'>('system', 'developer', 'both'),
    instructionParts: fc.boolean(),
    system: proseArbitrary(40),
    task: proseArbitrary(40),
    attachment: attachmentArbitrary,
  });
  return providerRequestArbitrary(settings, { plan, round, finalLoop: toolsRound, followUp }, buildRequest);
}

function buildRequest(plan: Plan, ids: IdSource): JSONRecord {
  const messages: JSONRecord[] = [];
  const instruction = (role: string, text: string) => ({
    role,
    content: plan.instructionParts ? [{ type: 'text', text }] : text,
  });
  if (plan.instructions !== 'developer') messages.push(instruction('system', plan.system));
  if (plan.instructions !== 'system')
    messages.push(instruction('developer', 'Prefer small, tested changes.'));
  messages.push(userMessage(plan.task, plan.attachment, false, ids));
  for (const { round, followUp } of plan.rounds) {
    if (messages.at(-1)?.role === 'assistant')
      messages.push(userMessage(followUp.text, followUp.attachment, followUp.named, ids));
    addRound(round, messages, ids);
  }
  messages.push(userMessage(plan.newest, 'none', false, ids));
  if (plan.endsInToolLoop) addRound(plan.finalLoop, messages, ids);
  return {
    model: 'gpt-5',
    messages,
    tools: [
      ...functionNames.map((name) => ({
        type: 'function',
        function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: {} } },
      })),
      ...functionNames.map((name) => ({
        type: 'custom',
        custom: { name: `${name}_raw`, description: `Raw ${name}.` },
      })),
    ],
    functions: functionNames.map((name) => ({ name, parameters: { type: 'object', properties: {} } })),
    ...(plan.thinking ? { reasoning_effort: 'medium' } : {}),
  };
}

function addRound(round: Round, messages: JSONRecord[], ids: IdSource): void {
  switch (round.kind) {
    case 'tools': {
      const calls = round.calls.map((call) => {
        const id = ids.next('call');
        return call.custom
          ? { id, type: 'custom', custom: { name: `${call.name}_raw`, input: call.argument } }
          : {
              id,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify({ query: call.argument }) },
            };
      });
      const content =
        round.content === 'none'
          ? null
          : round.content === 'text'
            ? round.text
            : [{ type: 'text', text: round.text }];
      messages.push({ role: 'assistant', content, tool_calls: calls });
      round.calls.forEach((call, index) => {
        messages.push({
          role: 'tool',
          tool_call_id: calls[index]!.id,
          content: call.resultAsParts ? [{ type: 'text', text: call.result }] : call.result,
        });
      });
      return;
    }
    case 'legacy-function':
      messages.push({
        role: 'assistant',
        content: null,
        function_call: { name: round.name, arguments: JSON.stringify({ query: round.argument }) },
      });
      messages.push({ role: 'function', name: round.name, content: round.result });
      return;
    case 'answer':
      messages.push(answer(round, ids));
      return;
  }
}

function answer(round: Round & { kind: 'answer' }, ids: IdSource): JSONRecord {
  switch (round.form) {
    case 'text':
      return { role: 'assistant', content: round.text };
    case 'parts':
      return { role: 'assistant', content: [{ type: 'text', text: round.text }] };
    case 'refusal':
      return { role: 'assistant', content: null, refusal: round.text };
    case 'refusal-part':
      return { role: 'assistant', content: [{ type: 'refusal', refusal: round.text }] };
    case 'audio':
      return { role: 'assistant', content: null, audio: { id: ids.next('audio') } };
  }
}

function userMessage(text: string, attachment: Attachment, named: boolean, ids: IdSource): JSONRecord {
  const parts: Record<Attachment, JSONRecord[]> = {
    none: [],
    image: [{ type: 'image_url', image_url: { url: 'https://example.com/screenshot.png', detail: 'auto' } }],
    audio: [{ type: 'input_audio', input_audio: { data: 'UklGRiQAAABXQVZF', format: 'wav' } }],
    file: [{ type: 'file', file: { file_id: ids.next('file'), filename: 'report.pdf' } }],
  };
  const extra = parts[attachment];
  return {
    role: 'user',
    content: extra.length === 0 ? text : [{ type: 'text', text }, ...extra],
    ...(named ? { name: 'reviewer' } : {}),
  };
}
