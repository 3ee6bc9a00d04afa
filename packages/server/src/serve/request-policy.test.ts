import { createStrategyRegistry } from '@compaction/core';
import { slidingWindowDefinition } from '@compaction/strategy-sliding-window';
import { summarizationDefinition } from '@compaction/strategy-summarization';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { CliError } from '../errors/cli-error.js';
import { HttpError } from '../errors/http-error.js';
import {
  checkRequestConfig,
  createRequestPolicy,
  type RequestPolicy,
  strategyEntries,
  verifyRequestPolicy,
} from './request-policy.js';

const provider = { name: 'anthropic', model: 'claude-operator', baseURL: 'http://127.0.0.1:1' };
const operatorConfig = {
  strategy: [
    'tool-result-truncation',
    { name: 'summarization', options: { maxOutputTokens: 500, instructions: 'Keep paths.' } },
  ],
  fallback: 'sliding-window',
};

/** The error a check throws, for its status, code and message. */
function refusal(value: unknown, policy: RequestPolicy) {
  try {
    checkRequestConfig(value, policy);
  } catch (error) {
    if (HttpError.isInstance(error))
      return { status: error.status, code: error.errorCode, message: error.message };
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
}

// Not on the Node 22 compatibility run: the request policy is plain code, with no module of the runtime (the Node
// 20 run has run it).
describeOnFullRun('request policy', () => {
  const policy = createRequestPolicy(operatorConfig, provider);

  it('by default allows the operator’s strategies, with the operator’s options, and nothing else', () => {
    expect([...policy.strategies.keys()]).toEqual([
      'tool-result-truncation',
      'summarization',
      'sliding-window',
    ]);
    expect(checkRequestConfig({ strategy: ['summarization'] }, policy)).toEqual({
      config: {
        strategy: [{ name: 'summarization', options: { maxOutputTokens: 500, instructions: 'Keep paths.' } }],
      },
    });
    expect(
      checkRequestConfig({ strategy: 'sliding-window', budget: { contextWindow: 9000 } }, policy),
    ).toEqual({
      config: { strategy: 'sliding-window', budget: { contextWindow: 9000 } },
    });
    expect(checkRequestConfig(undefined, policy)).toBeUndefined();
    expect(refusal({ strategy: 'pruning' }, policy)).toEqual({
      status: 403,
      code: 'config-not-allowed',
      message:
        'config.strategy: strategy "pruning" is not allowed here; allowed: tool-result-truncation, summarization, sliding-window (see --allow-strategy)',
    });
    expect(refusal({ fallback: ['sliding-window', { name: 'pruning' }] }, policy).message).toMatch(
      /^config\.fallback\[1\]\.name: strategy "pruning" is not allowed/,
    );
  });

  it('refuses every provider setting but an allowed model, naming the field', () => {
    const fields = {
      baseURL: 'http://127.0.0.1:9',
      apiKey: 'sk-other',
      name: 'openai',
      headers: { 'x-forward': '1' },
      defaultHeaders: { authorization: 'x' },
      fetch: 'anything',
    };
    for (const [key, value] of Object.entries(fields)) {
      const refused = refusal(
        { strategy: 'summarization', provider: { name: 'anthropic', [key]: value } },
        policy,
      );
      expect(refused.status, key).toBe(403);
      expect(refused.message).toMatch(new RegExp(`^config\\.provider\\.${key}: the provider, its base URL`));
    }
    expect(refusal({ provider: { model: 'claude-other' } }, policy).message).toBe(
      'config.provider.model: the model is set by the server operator; this server lets requests pick none (see --allow-model)',
    );
    // The operator's own model, and the operator's provider name, change nothing and are accepted.
    expect(checkRequestConfig({ provider: { name: 'anthropic', model: 'claude-operator' } }, policy)).toEqual(
      {
        config: {},
        model: 'claude-operator',
      },
    );
    const none = createRequestPolicy({ strategy: 'sliding-window' }, undefined);
    expect(refusal({ provider: { name: 'anthropic' } }, none)).toMatchObject({
      status: 403,
      message: expect.stringMatching(/^config\.provider: this server has no provider/),
    });
  });

  it('lets a request pick a model from the allow-list, in the provider or a strategy option', () => {
    const models = createRequestPolicy(operatorConfig, provider, {
      models: ['claude-small', 'claude-large'],
    });
    expect(checkRequestConfig({ provider: { model: 'claude-small' } }, models)).toEqual({
      config: {},
      model: 'claude-small',
    });
    expect(
      checkRequestConfig({ strategy: { name: 'summarization', options: { model: 'claude-large' } } }, models),
    ).toEqual({
      config: {
        strategy: {
          name: 'summarization',
          options: { maxOutputTokens: 500, instructions: 'Keep paths.', model: 'claude-large' },
        },
      },
    });
    expect(refusal({ provider: { model: 'gpt-9' } }, models).message).toBe(
      'config.provider.model: model "gpt-9" is not allowed here; allowed: claude-small, claude-large (see --allow-model)',
    );
    expect(
      refusal({ strategy: { name: 'summarization', options: { model: 'gpt-9' } } }, models).message,
    ).toMatch(/^config\.strategy\.options\.model: model "gpt-9" is not allowed/);
    expect(refusal({ provider: { model: 'claude-small', baseURL: 'http://x' } }, models).message).toMatch(
      /^config\.provider\.baseURL: .*a request may only pick "model" \(see --allow-model\)$/,
    );
  });

  it('lets a request set only the options the operator allows, over the operator’s own', () => {
    expect(
      refusal({ strategy: { name: 'summarization', options: { template: '{{conversation}}' } } }, policy),
    ).toEqual({
      status: 403,
      code: 'config-not-allowed',
      message:
        'config.strategy.options.template: option "template" of strategy "summarization" is set by the server operator (see --allow-option summarization.template)',
    });
    const allowed = createRequestPolicy(operatorConfig, provider, {
      options: ['summarization.instructions', 'sliding-window.*'],
    });
    expect(
      checkRequestConfig(
        {
          strategy: [
            { name: 'summarization', options: { instructions: 'Keep tests.' } },
            { name: 'sliding-window', options: { anything: 1 } },
          ],
        },
        allowed,
      ),
    ).toEqual({
      config: {
        strategy: [
          { name: 'summarization', options: { maxOutputTokens: 500, instructions: 'Keep tests.' } },
          { name: 'sliding-window', options: { anything: 1 } },
        ],
      },
    });
    expect(
      refusal({ strategy: { name: 'summarization', options: { maxOutputTokens: 100_000 } } }, allowed).status,
    ).toBe(403);
  });

  it('checks the stages of a pipeline like top-level strategies', () => {
    const pipeline = createRequestPolicy(
      { strategy: { name: 'pipeline', options: { stages: ['pruning', 'sliding-window'] } } },
      undefined,
    );
    expect([...pipeline.strategies.keys()]).toEqual(['pipeline', 'pruning', 'sliding-window']);
    expect(
      checkRequestConfig(
        { strategy: { name: 'pipeline', options: { stages: ['sliding-window'] } } },
        pipeline,
      ),
    ).toEqual({ config: { strategy: { name: 'pipeline', options: { stages: ['sliding-window'] } } } });
    expect(
      refusal({ strategy: { name: 'pipeline', options: { stages: ['pruning', 'summarization'] } } }, pipeline)
        .message,
    ).toMatch(/^config\.strategy\.options\.stages\[1\]: strategy "summarization" is not allowed/);
  });

  it('answers 400 for a malformed config', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['sliding-window', /^config must be a JSON object$/],
      [[1], /^config must be a JSON object$/],
      [{ provider: 'anthropic' }, /^config\.provider must be a JSON object$/],
      [{ strategy: 3 }, /^config\.strategy must be a strategy name/],
      [{ strategy: [{ options: {} }] }, /^config\.strategy\[0\]\.name must be a string$/],
      [
        { strategy: { name: 'sliding-window', options: [] } },
        /^config\.strategy\.options must be a JSON object$/,
      ],
    ];
    for (const [value, message] of cases) {
      const refused = refusal(value, policy);
      expect(refused.status, JSON.stringify(value)).toBe(400);
      expect(refused.code).toBe('invalid-config');
      expect(refused.message).toMatch(message);
    }
  });

  it('lists the strategy entries of a config, pipeline stages included', () => {
    expect(
      strategyEntries({
        strategy: [{ name: 'pipeline', options: { stages: ['a', { name: 'b', options: { x: 1 } }] } }],
        fallback: 'c',
      }).map((entry) => entry.name),
    ).toEqual(['pipeline', 'a', 'b', 'c']);
  });

  it('checks the operator’s allowances at start-up', async () => {
    // The summarization definition says when it needs a provider: the policy asks it.
    const definitions = createStrategyRegistry({
      loadPackage: false,
      definitions: [slidingWindowDefinition, summarizationDefinition],
    });
    await expect(
      verifyRequestPolicy(
        createRequestPolicy({ strategy: 'sliding-window' }, undefined, { strategies: ['nope'] }),
        definitions,
      ),
    ).rejects.toThrow('No strategy named "nope"');
    const trailOnly = { strategy: { name: 'summarization', options: { maxOutputTokens: 0 } } };
    // The artifact trail alone calls no model, unless a request may change maxOutputTokens.
    await expect(verifyRequestPolicy(createRequestPolicy(trailOnly, undefined), definitions)).resolves.toBe(
      undefined,
    );
    const cases: Array<[RequestPolicy, string]> = [
      [
        createRequestPolicy({ strategy: 'sliding-window' }, undefined, { strategies: ['summarization'] }),
        '--allow-strategy summarization needs a provider',
      ],
      [
        createRequestPolicy(trailOnly, undefined, { options: ['summarization.maxOutputTokens'] }),
        '--allow-option summarization.maxOutputTokens needs a provider',
      ],
      [
        createRequestPolicy(trailOnly, undefined, { options: ['summarization.*'] }),
        '--allow-option summarization.* needs a provider',
      ],
      [
        createRequestPolicy({ strategy: 'sliding-window' }, undefined, { models: ['m'] }),
        '--allow-model needs a provider',
      ],
      [
        createRequestPolicy({ strategy: 'sliding-window' }, undefined, { options: ['window'] }),
        'strategy.option',
      ],
      [
        createRequestPolicy({ strategy: 'sliding-window' }, undefined, { options: ['pruning.keep'] }),
        'strategy "pruning" is not allowed for requests',
      ],
    ];
    for (const [candidate, message] of cases) {
      const error = await verifyRequestPolicy(candidate, definitions).catch((caught: unknown) => caught);
      expect(CliError.isInstance(error), message).toBe(true);
      expect((error as Error).message).toContain(message);
    }
    await expect(
      verifyRequestPolicy(
        createRequestPolicy({ strategy: 'sliding-window' }, provider, {
          models: ['m'],
          options: ['sliding-window.*'],
        }),
        definitions,
      ),
    ).resolves.toBeUndefined();
  });
});
