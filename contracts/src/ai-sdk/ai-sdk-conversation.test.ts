import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aiSdkConversationArbitrary } from './ai-sdk-conversation.js';
import type { AiSdkTarget } from './ai-sdk-target.js';

type Part = Record<string, unknown>;

/** Names for what a message holds: role, part type and the variant that matters to a provider. */
function kindsOf(part: Part, role: string): string[] {
  const options = (part.providerOptions ?? {}) as Record<string, Record<string, unknown>>;
  switch (part.type) {
    case 'reasoning':
      if (options.anthropic?.signature !== undefined) return ['reasoning:signature'];
      if (options.anthropic?.redactedData !== undefined) return ['reasoning:redacted'];
      if (options.openai?.reasoningEncryptedContent !== undefined) return ['reasoning:openai-item'];
      return ['reasoning:plain'];
    case 'tool-call':
      return [part.providerExecuted === true ? 'tool-call:provider' : 'tool-call'];
    case 'tool-approval-response':
      return [part.providerExecuted === true ? 'approval-response:provider' : 'approval-response'];
    case 'tool-result': {
      const output = part.output as { type: string; value?: Part[] };
      const items = output.type === 'content' ? output.value!.map((item) => `content:${item.type}`) : [];
      return [`${role}:tool-result:${output.type}`, ...items];
    }
    case 'file':
      return [`${role}:file:${part.mediaType}`];
    default:
      return [`${role}:${part.type}`];
  }
}

function kindsGenerated(target: AiSdkTarget): Set<string> {
  const kinds = new Set<string>();
  for (const conversation of fc.sample(aiSdkConversationArbitrary(target), { numRuns: 150, seed: 2026 })) {
    if (conversation.system !== undefined) kinds.add('system-option');
    for (const message of conversation.messages) {
      if (typeof message.content === 'string') kinds.add(`${message.role}:string`);
      else
        for (const part of message.content)
          for (const kind of kindsOf(part as Part, message.role)) kinds.add(kind);
    }
  }
  return kinds;
}

const everywhere = [
  'system-option',
  'system:string',
  'user:string',
  'user:text',
  'user:image',
  'assistant:string',
  'assistant:text',
  'assistant:file:image/png',
  'tool-call',
  'assistant:tool-approval-request',
  'approval-response',
  ...['text', 'json', 'error-text', 'error-json', 'execution-denied', 'content'].map(
    (type) => `tool:tool-result:${type}`,
  ),
  ...[
    'text',
    'image-data',
    'image-url',
    'file-data',
    'file-url',
    'file-id',
    'image-file-id',
    'custom',
    'media',
  ].map((type) => `content:${type}`),
];

const byTarget: Record<AiSdkTarget, string[]> = {
  anthropic: [
    'reasoning:signature',
    'reasoning:redacted',
    'tool-call:provider',
    'assistant:tool-result:json',
    'assistant:tool-result:error-json',
    'user:file:application/pdf',
    'user:file:text/plain',
  ],
  'openai-chat': ['reasoning:plain', 'user:file:application/pdf', 'user:file:audio/wav'],
  'openai-responses': [
    'reasoning:openai-item',
    'tool-call:provider',
    'assistant:tool-result:json',
    'approval-response:provider',
    'user:file:application/pdf',
  ],
};

describe('generated AI SDK conversations', () => {
  it.each(Object.keys(byTarget) as AiSdkTarget[])('hold every part and output type %s converts', (target) => {
    const kinds = kindsGenerated(target);
    const missing = [...everywhere, ...byTarget[target]].filter((kind) => !kinds.has(kind));
    expect(missing).toEqual([]);
  });

  it('end with a newest user request after the agent history', () => {
    for (const conversation of fc.sample(aiSdkConversationArbitrary('anthropic'), { numRuns: 50, seed: 7 })) {
      const roles = conversation.messages.map((message) => message.role);
      expect(roles.at(-1)).toBe('user');
      expect(roles.at(-2)).not.toBe('user');
      expect(roles.filter((role) => role === 'assistant').length).toBeGreaterThanOrEqual(3);
    }
  });
});
