import { servedFormatNames } from './request-conversation.js';

/** A reference to a schema of the document. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const integer = { type: 'integer', minimum: 0 } as const;
const text = { type: 'string' } as const;
const time = { type: 'string', format: 'date-time' } as const;
const anyObject = { type: 'object' } as const;
const parts = { type: 'array', items: { type: 'object', required: ['type'], properties: { type: text } } };

/**
 * The schemas of the HTTP API's bodies (JSON Schema 2020-12, as OpenAPI 3.1 uses). Conversations are
 * described as far as the server relies on them; the provider SDKs' request types say the rest.
 */
export const openApiSchemas = {
  Error: {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: {
          code: { ...text, description: 'Stable, such as `invalid-messages` or `config-not-allowed`.' },
          message: { ...text, description: 'What is wrong and where, in one line.' },
        },
      },
    },
  },
  Format: {
    description:
      'A conversation format. Without `format`, the server detects it as `compaction compact` does ' +
      '(docs/cli.md, "Format detection").',
    enum: [...servedFormatNames],
  },
  CoreMessage: {
    type: 'object',
    required: ['role', 'content'],
    properties: {
      role: { enum: ['system', 'user', 'assistant', 'tool'] },
      content: parts,
      metadata: anyObject,
    },
  },
  CoreConversation: {
    description: 'Core messages, in an object whose other fields are kept.',
    type: 'object',
    required: ['messages'],
    properties: { messages: { type: 'array', items: schemaRef('CoreMessage') } },
  },
  AnthropicRequest: {
    description: 'An Anthropic Messages request (`MessageCreateParams` of `@anthropic-ai/sdk`).',
    type: 'object',
    required: ['messages'],
    properties: {
      model: text,
      max_tokens: integer,
      system: { anyOf: [text, parts] },
      messages: {
        type: 'array',
        items: {
          type: 'object',
          required: ['role', 'content'],
          properties: { role: { enum: ['user', 'assistant'] }, content: { anyOf: [text, parts] } },
        },
      },
      tools: { type: 'array', items: anyObject },
      thinking: anyObject,
    },
  },
  OpenAIChatRequest: {
    description: 'An OpenAI Chat Completions request (`ChatCompletionCreateParams` of `openai`).',
    type: 'object',
    required: ['messages'],
    properties: {
      model: text,
      messages: {
        type: 'array',
        items: {
          type: 'object',
          required: ['role'],
          properties: {
            role: { enum: ['system', 'developer', 'user', 'assistant', 'tool', 'function'] },
            content: { anyOf: [text, parts, { type: 'null' }] },
            tool_calls: { type: 'array', items: anyObject },
            tool_call_id: text,
          },
        },
      },
      tools: { type: 'array', items: anyObject },
    },
  },
  OpenAIResponsesRequest: {
    description: 'An OpenAI Responses request (`ResponseCreateParams` of `openai`).',
    type: 'object',
    required: ['input'],
    properties: {
      model: text,
      instructions: text,
      input: { anyOf: [text, { type: 'array', items: anyObject }] },
      tools: { type: 'array', items: anyObject },
    },
  },
  Conversation: {
    description:
      'A conversation as `compaction compact` reads it: an Anthropic Messages, OpenAI Chat or OpenAI ' +
      'Responses request, core messages in `{"messages": [...]}`, or a bare list of messages (of Responses ' +
      "input items). Answers give it back in its format and shape, with the request's other fields unchanged.",
    anyOf: [
      schemaRef('AnthropicRequest'),
      schemaRef('OpenAIChatRequest'),
      schemaRef('OpenAIResponsesRequest'),
      schemaRef('CoreConversation'),
      { description: 'A bare list of messages or input items.', type: 'array', items: anyObject },
    ],
  },
  Config: {
    description:
      "Laid over the operator's config, within what the operator allows: strategies the operator " +
      'configured, options and models only when allowed (`--allow-option`, `--allow-model`), any budget field.',
    type: 'object',
    properties: {
      strategy: {},
      fallback: {},
      budget: anyObject,
      provider: { type: 'object', properties: { model: text } },
    },
  },
  Instructions: {
    ...text,
    description: 'The text of a manual `/compact`, for a summarizing strategy.',
  },
  CompactRequest: {
    type: 'object',
    required: ['conversation'],
    additionalProperties: false,
    properties: {
      conversation: schemaRef('Conversation'),
      format: schemaRef('Format'),
      config: schemaRef('Config'),
      instructions: schemaRef('Instructions'),
    },
  },
  Stage: {
    type: 'object',
    required: ['name', 'tokensBefore', 'tokensAfter', 'messagesBefore', 'messagesAfter'],
    additionalProperties: false,
    properties: {
      name: text,
      tokensBefore: integer,
      tokensAfter: integer,
      messagesBefore: integer,
      messagesAfter: integer,
      fallback: { ...text, description: '`extractive-digest` when a summarizer failed.' },
      failure: text,
    },
  },
  Counts: {
    type: 'object',
    required: ['messages', 'tokens'],
    additionalProperties: false,
    properties: { messages: integer, tokens: integer },
  },
  CompactionReport: {
    description: 'What the compaction did: the fields of `compaction compact --json`.',
    type: 'object',
    required: [
      'format',
      'outputFormat',
      'strategy',
      'compacted',
      'before',
      'after',
      'target',
      'targetReached',
      'limit',
      'stages',
      'usedFallback',
      'durationMs',
    ],
    additionalProperties: false,
    properties: {
      format: schemaRef('Format'),
      outputFormat: schemaRef('Format'),
      strategy: { type: 'array', items: text },
      compacted: { type: 'boolean' },
      skipped: {
        ...text,
        description:
          'Why nothing was compacted: `under-target`, or `stored-context` (a Responses request with `previous_response_id` or `conversation`).',
      },
      before: schemaRef('Counts'),
      after: schemaRef('Counts'),
      target: integer,
      targetReached: { type: 'boolean' },
      limit: integer,
      stages: { type: 'array', items: schemaRef('Stage') },
      usedFallback: { type: 'boolean' },
      fallback: text,
      failures: { type: 'array', items: text },
      durationMs: { type: 'number', minimum: 0 },
    },
  },
  CompactResponse: {
    type: 'object',
    required: ['conversation', 'report'],
    additionalProperties: false,
    properties: {
      conversation: {
        ...schemaRef('Conversation'),
        description: 'The conversation compacted, in its format; with nothing compacted, as it was sent.',
      },
      report: schemaRef('CompactionReport'),
    },
  },
  CompactionEvent: {
    description: 'The record of one compaction.',
    type: 'object',
    required: [
      'id',
      'sessionId',
      'round',
      'trigger',
      'strategy',
      'usedFallback',
      'tokensBefore',
      'tokensAfter',
      'messagesBefore',
      'messagesAfter',
      'durationMs',
      'startedAt',
      'failures',
      'repairs',
    ],
    additionalProperties: false,
    properties: {
      id: text,
      sessionId: text,
      round: { type: 'integer', minimum: 1 },
      trigger: { enum: ['auto', 'manual', 'overflow'] },
      strategy: text,
      usedFallback: { type: 'boolean' },
      tokensBefore: integer,
      tokensAfter: integer,
      messagesBefore: integer,
      messagesAfter: integer,
      durationMs: { type: 'number', minimum: 0 },
      startedAt: time,
      summary: text,
      instructions: text,
      failures: { type: 'array', items: anyObject },
      repairs: { type: 'array', items: anyObject },
      details: anyObject,
    },
  },
  Budget: {
    type: 'object',
    required: ['contextWindow', 'limit', 'trigger', 'target'],
    additionalProperties: false,
    properties: {
      contextWindow: integer,
      limit: integer,
      trigger: { description: 'null when automatic compaction is off.', anyOf: [integer, { type: 'null' }] },
      target: integer,
    },
  },
  Session: {
    type: 'object',
    required: [
      'id',
      'format',
      'createdAt',
      'lastActiveAt',
      'expiresAt',
      'messages',
      'bytes',
      'tokens',
      'budget',
      'compactions',
    ],
    properties: {
      id: text,
      format: schemaRef('Format'),
      createdAt: time,
      lastActiveAt: time,
      expiresAt: time,
      messages: { ...integer, description: 'How many core messages the session holds.' },
      bytes: { ...integer, description: 'Its messages as JSON, in bytes (see --max-session-size).' },
      tokens: integer,
      budget: schemaRef('Budget'),
      compactions: { ...integer, description: 'Compactions since the session began.' },
    },
  },
  SessionSummary: { ...schemaRef('Session'), unevaluatedProperties: false },
  SessionWithConversation: {
    allOf: [schemaRef('Session')],
    required: ['conversation'],
    properties: { conversation: schemaRef('Conversation') },
    unevaluatedProperties: false,
  },
  SessionChange: {
    description: 'The session after a change, with its conversation in its format.',
    allOf: [schemaRef('Session')],
    required: ['conversation', 'compacted'],
    properties: {
      conversation: schemaRef('Conversation'),
      compacted: { type: 'boolean' },
      event: schemaRef('CompactionEvent'),
      skipped: text,
    },
    unevaluatedProperties: false,
  },
  CreateSessionRequest: {
    type: 'object',
    additionalProperties: false,
    properties: {
      conversation: schemaRef('Conversation'),
      format: schemaRef('Format'),
      config: schemaRef('Config'),
    },
  },
  AppendRequest: {
    type: 'object',
    required: ['messages'],
    additionalProperties: false,
    properties: {
      messages: {
        description:
          "New messages in the session's format: Anthropic or Chat messages, Responses input items, core messages.",
        type: 'array',
        items: anyObject,
      },
    },
  },
  CompactSessionRequest: {
    type: 'object',
    additionalProperties: false,
    properties: {
      instructions: schemaRef('Instructions'),
      force: {
        type: 'boolean',
        description:
          'Compact even a session under its target (a compaction that would otherwise be skipped). Default false.',
      },
    },
  },
  SessionPage: {
    type: 'object',
    required: ['sessions'],
    additionalProperties: false,
    properties: {
      sessions: { type: 'array', items: schemaRef('SessionSummary') },
      nextCursor: { ...text, description: 'Pass it back as `cursor` for the next page.' },
    },
  },
  CompactionList: {
    type: 'object',
    required: ['total', 'compactions'],
    additionalProperties: false,
    properties: {
      total: integer,
      compactions: { type: 'array', items: schemaRef('CompactionEvent') },
    },
  },
  ArchivedItem: {
    description:
      'Text a compaction removed or shortened, kept under the handle its placeholder names (`recall "<handle>"`).',
    type: 'object',
    required: ['handle', 'label', 'text'],
    additionalProperties: false,
    properties: {
      handle: text,
      label: { ...text, description: 'What it held, such as `bash output` or `turns 3-7`.' },
      text: {
        ...text,
        description:
          'The text exactly as it was; with fromLine, toLine or pattern, the recall tool’s answer for that part.',
      },
      truncated: {
        type: 'boolean',
        description: 'With fromLine, toLine or pattern: whether the size bound cut the part asked for.',
      },
    },
  },
  Health: {
    type: 'object',
    required: ['ok', 'sessions', 'compactions'],
    additionalProperties: false,
    properties: {
      ok: { const: true },
      sessions: integer,
      compactions: { ...integer, description: 'Compactions running or waiting for a slot.' },
    },
  },
} as const;
