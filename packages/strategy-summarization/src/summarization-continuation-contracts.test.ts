import {
  BudgetUnreachableError,
  createTokenCounter,
  type JSONObject,
  type Message,
  type Provider,
} from '@compaction/core';
import { createAnthropicProvider, fromAnthropicRequest } from '@compaction/provider-anthropic';
import {
  createOpenAIProvider,
  fromOpenAIChatMessages,
  fromOpenAIResponsesInput,
} from '@compaction/provider-openai';
import {
  anthropicMessagesRequestArbitrary,
  anthropicMessagesViolations,
  type ContractViolation,
  deepFreeze,
  openAIChatRequestArbitrary,
  openAIChatViolations,
  openAIResponsesRequestArbitrary,
  openAIResponsesViolations,
} from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicMessage, chatCompletion, responsesResponse } from './__fixtures__/sdk-harnesses.js';
import { wellFormedSummary } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Body = Record<string, unknown>;

/** One API behind its real adapter and SDK: the generated requests, how they are read, what the API accepts. */
interface ApiCase {
  name: string;
  path: string;
  arbitrary: fc.Arbitrary<Body>;
  read(request: Body): Message[];
  provider(request: Body): Provider;
  violations(body: unknown): ContractViolation[];
  /** What else each request sent must hold, beyond the API's rules. */
  expectations(body: Body, request: Body): void;
  success(text: string): unknown;
  /** What the API answers to a request it refuses. */
  refusal(violations: readonly ContractViolation[]): unknown;
}

const connection = () => ({ apiKey: 'test-key', maxRetries: 0, timeout: 5000 });
// Results short enough that a run takes milliseconds; the block and item types are what is under test.
const generated = { maxRounds: 8, maxResultLength: 3000 };
const summaryText = wellFormedSummary();

const anthropicCase = (withTools: boolean): ApiCase => ({
  name: withTools ? "Anthropic, the agent's tools configured" : 'Anthropic, no tools configured',
  path: '/v1/messages',
  arbitrary: anthropicMessagesRequestArbitrary(generated),
  read: (request) => fromAnthropicRequest(request as unknown as Parameters<typeof fromAnthropicRequest>[0]),
  provider: (request) =>
    createAnthropicProvider({
      ...connection(),
      baseURL: server.url,
      model: 'claude-haiku-5-5',
      ...(withTools ? { tools: request.tools as JSONObject[] } : {}),
    }),
  violations: anthropicMessagesViolations,
  expectations: (body, request) => {
    // Tools go out only with tool blocks, and then as the agent defined them (the cached prefix opens with them).
    if (body.tools === undefined) return;
    expect(withTools).toBe(true);
    expect(body.tools).toEqual(request.tools);
    expect(body.tool_choice).toEqual({ type: 'none' });
  },
  success: anthropicMessage,
  refusal: (violations) => ({
    type: 'error',
    error: { type: 'invalid_request_error', message: violations.map((found) => found.message).join('; ') },
  }),
});

const openAIRefusal = (violations: readonly ContractViolation[]) => ({
  error: {
    message: violations.map((found) => found.message).join('; '),
    type: 'invalid_request_error',
    code: null,
  },
});

const chatCase: ApiCase = {
  name: 'OpenAI Chat Completions',
  path: '/v1/chat/completions',
  arbitrary: openAIChatRequestArbitrary(generated),
  read: (request) => fromOpenAIChatMessages(request.messages as Parameters<typeof fromOpenAIChatMessages>[0]),
  provider: () =>
    createOpenAIProvider({ ...connection(), baseURL: `${server.url}/v1`, model: 'gpt-5.4-mini' }),
  violations: openAIChatViolations,
  expectations: (body) => expect(body).not.toHaveProperty('tools'),
  success: chatCompletion,
  refusal: openAIRefusal,
};

const responsesCase: ApiCase = {
  name: 'OpenAI Responses',
  path: '/v1/responses',
  arbitrary: openAIResponsesRequestArbitrary(generated),
  read: (request) =>
    fromOpenAIResponsesInput(request.input as Parameters<typeof fromOpenAIResponsesInput>[0]),
  provider: () =>
    createOpenAIProvider({
      ...connection(),
      baseURL: `${server.url}/v1`,
      model: 'gpt-5.4-mini',
      api: 'responses',
    }),
  violations: openAIResponsesViolations,
  expectations: (body) => expect(body).not.toHaveProperty('tools'),
  success: responsesResponse,
  refusal: openAIRefusal,
};

/**
 * The summarizer asked in the conversation gets the agent's conversation as it is, with every block and item
 * type the APIs define: each request the adapter sends for it must be one the API accepts. The loopback
 * server answers like the API: a summary, or a 400 for a request that breaks the API's rules.
 */
describe.each([anthropicCase(true), anthropicCase(false), chatCase, responsesCase])(
  "summarizerRequest 'continuation' through the real SDK: $name",
  (api) => {
    it('sends only requests the API accepts, for conversations with every block type', async () => {
      let continued = 0;
      await fc.assert(
        fc.asyncProperty(api.arbitrary, async (request) => {
          server.reset();
          server.handle(api.path, (recorded) => {
            const violations = api.violations(recorded.body);
            return violations.length === 0
              ? { body: api.success(summaryText) }
              : { status: 400, body: api.refusal(violations) };
          });
          const messages = deepFreeze(api.read(request));
          const counter = createTokenCounter();
          const target = Math.floor(counter.count(messages) / 2);
          const output = await createSummarization({
            provider: api.provider(request),
            summarizerRequest: 'continuation',
          })
            .compact({ messages, counter, budget: { limit: target, target }, trigger: 'auto', round: 1 })
            .catch((error: unknown) => {
              // Kept verbatim, the task and the newest request alone can be over half of a short conversation.
              if (BudgetUnreachableError.isInstance(error)) return undefined;
              throw error;
            });
          for (const recorded of server.requests) {
            expect(api.violations(recorded.body), JSON.stringify(recorded.body).slice(0, 2000)).toEqual([]);
            api.expectations(recorded.body as Body, request);
          }
          if (output?.details?.summarizerRequest === 'continuation') continued++;
        }),
        { numRuns: 40 },
      );
      // The property is about continuation requests: many generated conversations must have been sent as one.
      // Without tools, every generated conversation (each has tool calls) goes as a transcript instead.
      if (api.name === 'Anthropic, no tools configured') expect(continued).toBe(0);
      else expect(continued).toBeGreaterThan(10);
    });
  },
);
