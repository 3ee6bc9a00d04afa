import { type BudgetOptions, budgetSchema } from '../budget/budget.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { type JSONObject, present } from '../json.js';
import { type OptionsSchema, validateOptions } from '../options/options-schema.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import type { CompactionTriggerPolicy } from '../specs/compaction-trigger-policy-v1.js';
import type { Provider } from '../specs/provider-v1.js';
import type { StrategyConfig } from '../specs/strategy-config.js';
import type { StrategyRegistry } from '../specs/strategy-registry-v1.js';
import { createPipeline, strategyConfigSchema } from '../strategies/pipeline.js';
import { createProviderRegistry, type ProviderConfig, type ProviderRegistry } from './provider-registry.js';

/** A compaction config: plain JSON, validated by the published {@link compactionConfigSchema}. */
export interface CompactionConfig {
  /** The JSON Schema URL or path, for editor completion. Ignored otherwise. */
  $schema?: string;
  /** One strategy, or several run as a pipeline in order until the target is met. */
  strategy: StrategyConfig | StrategyConfig[];
  /** Used when the strategy throws or breaks a rule. */
  fallback?: StrategyConfig | StrategyConfig[];
  /** The budget; `contextWindow` may come from the provider's model limits instead. */
  budget?: Partial<BudgetOptions>;
  /** The provider, by adapter name (`anthropic`, `openai`...) and its settings, for strategies that call an LLM. */
  provider?: ProviderConfig;
  /** How the Compactor counts before deciding; see `CompactorSettings.countTokens`. */
  countTokens?: 'estimate' | 'provider';
  /** A trigger policy by name (such as `cache-aware`), with its options; see `CompactorSettings.triggerPolicy`. */
  triggerPolicy?: string | { name: string; options?: JSONObject };
  /**
   * The tools whose latest call holds the agent's plan, pinned before every compaction; `false` pins nothing.
   * See `CompactorSettings.planTools` (default: `defaultPlanTools` of `@compaction/core/working-state`).
   */
  planTools?: readonly string[] | false;
}

/** Builds a trigger policy from its config options; {@link resolveCompactionConfig} is given them by name. */
export type TriggerPolicyFactory = (options: JSONObject) => CompactionTriggerPolicy;

/**
 * The JSON Schema of {@link CompactionConfig}. With a registry, each registered strategy's options schema
 * is included, so editors complete and check options by strategy name.
 */
export function compactionConfigSchema(registry?: StrategyRegistry): OptionsSchema {
  const definitions = registry?.list() ?? [];
  const named = definitions.map(
    (definition): OptionsSchema => ({
      type: 'object',
      description: definition.description,
      properties: { name: { const: definition.name }, options: definition.optionsSchema },
      required: ['name'],
      additionalProperties: false,
    }),
  );
  const entry: OptionsSchema =
    named.length === 0
      ? strategyConfigSchema
      : { anyOf: [{ type: 'string', minLength: 1 }, ...named, strategyConfigSchema] };
  const list: OptionsSchema = { anyOf: [entry, { type: 'array', items: entry, minItems: 1 }] };
  if (named.length === 0) list.description = 'a strategy, or a list of strategies run as a pipeline';
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Compaction config',
    type: 'object',
    properties: {
      $schema: { type: 'string' },
      strategy: list,
      fallback: list,
      budget: { ...budgetSchema, additionalProperties: false },
      provider: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 }, model: { type: 'string' } },
        required: ['name'],
      },
      countTokens: { enum: ['estimate', 'provider'] },
      // Named like a strategy: a name, or { name, options }.
      triggerPolicy: {
        ...strategyConfigSchema,
        description: 'A trigger policy by name, such as cache-aware, or { name, options }.',
      },
      planTools: {
        anyOf: [{ type: 'array', items: { type: 'string', minLength: 1 } }, { const: false }],
        description:
          "The tools whose latest call holds the agent's plan, pinned before every compaction (default " +
          'TodoWrite, update_plan, todowrite, write_todos), or false to pin nothing.',
      },
    },
    required: ['strategy'],
    additionalProperties: false,
  };
}

/** What a config resolves to; spread it into `createCompactor` (with a budget). */
export interface ResolvedCompactionConfig {
  strategy: CompactionStrategy;
  fallback?: CompactionStrategy;
  /** The config's provider, when it names one (or the one passed in). */
  provider?: Provider;
  countTokens?: 'estimate' | 'provider';
  /** The trigger policy the config names, built by the factory given for its name. */
  triggerPolicy?: CompactionTriggerPolicy;
  /** The config's plan tools, or `false`, when it names them. */
  planTools?: readonly string[] | false;
}

/**
 * Validates a config against {@link compactionConfigSchema} (or throws `InvalidOptionsError`), then builds
 * its provider (unless one is passed in), then its strategies, each given the provider, and its trigger
 * policy from `triggerPolicies` (an unknown name throws `InvalidOptionsError`).
 */
export async function resolveCompactionConfig(
  config: CompactionConfig,
  registry: StrategyRegistry,
  options: {
    provider?: Provider;
    providers?: ProviderRegistry;
    triggerPolicies?: Readonly<Record<string, TriggerPolicyFactory>>;
  } = {},
): Promise<ResolvedCompactionConfig> {
  validateOptions(compactionConfigSchema(), config, 'config');
  const providers = options.providers ?? createProviderRegistry();
  const provider = options.provider ?? (config.provider && (await providers.resolve(config.provider)));
  const context = present({ provider });
  const build = async (entry: StrategyConfig | StrategyConfig[]): Promise<CompactionStrategy> => {
    if (!Array.isArray(entry)) return registry.resolve(entry, context);
    const stages = await Promise.all(entry.map((stage) => registry.resolve(stage, context)));
    return stages.length === 1 ? stages[0]! : createPipeline(stages);
  };
  const strategy = await build(config.strategy);
  const fallback = config.fallback === undefined ? undefined : await build(config.fallback);
  const triggerPolicy = buildTriggerPolicy(config.triggerPolicy, options.triggerPolicies ?? {});
  const { countTokens, planTools } = config;
  return { strategy, ...present({ fallback, provider, countTokens, triggerPolicy, planTools }) };
}

function buildTriggerPolicy(
  entry: CompactionConfig['triggerPolicy'],
  factories: Readonly<Record<string, TriggerPolicyFactory>>,
): CompactionTriggerPolicy | undefined {
  if (entry === undefined) return undefined;
  const { name, options = {} } = typeof entry === 'string' ? { name: entry } : entry;
  const factory = Object.hasOwn(factories, name) ? factories[name] : undefined;
  if (factory !== undefined) return factory(options);
  const known = Object.keys(factories).join(', ') || 'none given';
  const message = `unknown trigger policy "${name}" (known: ${known})`;
  throw new InvalidOptionsError({ subject: 'config', issues: [{ path: 'triggerPolicy', message }] });
}
