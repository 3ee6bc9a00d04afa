import type { CompactionConfig, JSONObject, StrategyConfig, StrategyRegistry } from '@compaction/core';
import { usageError } from '../errors/cli-error.js';
import { badRequest, HttpError } from '../errors/http-error.js';
import type { ProviderSettings } from '../providers/create-provider.js';

/**
 * What a request's `config` may choose on a server. The provider, its base URL, its credentials and its
 * model come from the operator alone: a request can only pick a model from {@link models}, and never name
 * another provider or address, so no client can send the server's API key or a conversation elsewhere.
 */
export interface RequestPolicy {
  /** Strategies a request may name, each with the options the operator configured for it (if any). */
  strategies: ReadonlyMap<string, JSONObject | undefined>;
  /** Strategy options a request may set, as `strategy.option` or `strategy.*` for all of one strategy's. */
  options: ReadonlySet<string>;
  /** Models a request may pick, in `config.provider.model` or a strategy's `model` option. */
  models: ReadonlySet<string>;
  /** The operator's provider; requests never replace it. */
  provider?: ProviderSettings;
}

/** What the operator allows beyond the defaults (the `--allow-*` flags). */
export interface RequestAllowances {
  /** Strategy names; default: the strategies in the operator's config. */
  strategies?: readonly string[];
  options?: readonly string[];
  models?: readonly string[];
}

/** A request's `config`, checked against the policy: safe to lay over the operator's settings. */
export interface CheckedRequestConfig {
  /** The config to merge: strategies carry the operator's options under the request's own. */
  config: Partial<CompactionConfig>;
  /** The model the request picked, from the allowed ones. */
  model?: string;
}

/** The status and code of a request config the policy refuses. */
const notAllowedCode = 'config-not-allowed';

function notAllowed(field: string, message: string): HttpError {
  return new HttpError({ status: 403, errorCode: notAllowedCode, message: `${field}: ${message}` });
}

/** Every strategy entry of a config, pipeline stages included, in order. */
export function strategyEntries(config: Pick<CompactionConfig, 'strategy' | 'fallback'>) {
  const entries: Array<{ name: string; options?: JSONObject }> = [];
  const visit = (entry: StrategyConfig | StrategyConfig[] | undefined) => {
    if (entry === undefined) return;
    if (Array.isArray(entry)) return entry.forEach(visit);
    const object = typeof entry === 'string' ? { name: entry } : entry;
    entries.push(object as { name: string; options?: JSONObject });
    const stages = (object.options as { stages?: StrategyConfig[] } | undefined)?.stages;
    if (object.name === 'pipeline' && Array.isArray(stages)) visit(stages);
  };
  visit(config.strategy);
  visit(config.fallback);
  return entries;
}

/**
 * The policy of an operator's settings: by default a request may name the strategies the operator
 * configured (with the operator's options for them) and set nothing else; the allowances add to that.
 */
export function createRequestPolicy(
  config: Pick<CompactionConfig, 'strategy' | 'fallback'>,
  provider: ProviderSettings | undefined,
  allowances: RequestAllowances = {},
): RequestPolicy {
  const configured = new Map<string, JSONObject | undefined>();
  // The first entry of a name gives its options, as it is the one the operator's own runs use first.
  for (const entry of strategyEntries(config)) {
    if (!configured.has(entry.name)) configured.set(entry.name, entry.options);
  }
  const strategies = new Map<string, JSONObject | undefined>();
  for (const name of allowances.strategies ?? configured.keys()) strategies.set(name, configured.get(name));
  return {
    strategies,
    options: new Set(allowances.options ?? []),
    models: new Set(allowances.models ?? []),
    ...(provider === undefined ? {} : { provider }),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const listOf = (values: Iterable<string>) => [...values].join(', ') || '(none)';

/**
 * Checks a request's `config` against the policy. Throws 403 `config-not-allowed` naming the first field the
 * operator does not allow (a provider setting, a strategy, an option, a model), or 400 `invalid-config` for
 * a malformed one. The rest of the config (its budget) is validated when it is merged.
 */
export function checkRequestConfig(value: unknown, policy: RequestPolicy): CheckedRequestConfig | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw badRequest('invalid-config', 'config must be a JSON object');
  let model: string | undefined;
  const pickModel = (field: string, candidate: unknown) => {
    if (typeof candidate !== 'string') throw badRequest('invalid-config', `${field} must be a string`);
    if (!policy.models.has(candidate) && candidate !== policy.provider?.model) {
      throw notAllowed(
        field,
        policy.models.size === 0
          ? 'the model is set by the server operator; this server lets requests pick none (see --allow-model)'
          : `model "${candidate}" is not allowed here; allowed: ${listOf(policy.models)} (see --allow-model)`,
      );
    }
    return candidate;
  };

  const checked: Partial<CompactionConfig> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'provider') {
      model = checkProvider(entry, policy, pickModel);
    } else if (key === 'strategy' || key === 'fallback') {
      checked[key] = checkStrategyList(entry, `config.${key}`, policy, pickModel);
    } else {
      // The budget and anything unknown are left to the config schema, which names unknown keys.
      (checked as Record<string, unknown>)[key] = entry;
    }
  }
  return { config: checked, ...(model === undefined ? {} : { model }) };
}

function checkProvider(
  value: unknown,
  policy: RequestPolicy,
  pickModel: (field: string, candidate: unknown) => string,
): string | undefined {
  if (!isObject(value)) throw badRequest('invalid-config', 'config.provider must be a JSON object');
  if (policy.provider === undefined) {
    throw notAllowed(
      'config.provider',
      'this server has no provider, and requests cannot name one; the operator configures it',
    );
  }
  let model: string | undefined;
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'model') model = pickModel('config.provider.model', entry);
    else if (key === 'name' && entry === policy.provider.name) continue;
    else {
      throw notAllowed(
        `config.provider.${key}`,
        'the provider, its base URL and its credentials are set by the server operator, not by requests' +
          (policy.models.size > 0 ? '; a request may only pick "model" (see --allow-model)' : ''),
      );
    }
  }
  return model;
}

function checkStrategyList(
  value: unknown,
  field: string,
  policy: RequestPolicy,
  pickModel: (field: string, candidate: unknown) => string,
): StrategyConfig | StrategyConfig[] {
  if (Array.isArray(value)) {
    return value.map((entry, index) => checkStrategy(entry, `${field}[${index}]`, policy, pickModel));
  }
  return checkStrategy(value, field, policy, pickModel);
}

function checkStrategy(
  value: unknown,
  field: string,
  policy: RequestPolicy,
  pickModel: (field: string, candidate: unknown) => string,
): StrategyConfig {
  if (typeof value !== 'string' && !isObject(value)) {
    throw badRequest('invalid-config', `${field} must be a strategy name or {"name", "options"}`);
  }
  const name = typeof value === 'string' ? value : value.name;
  if (typeof name !== 'string') throw badRequest('invalid-config', `${field}.name must be a string`);
  if (!policy.strategies.has(name)) {
    throw notAllowed(
      typeof value === 'string' ? field : `${field}.name`,
      `strategy "${name}" is not allowed here; allowed: ${listOf(policy.strategies.keys())} (see --allow-strategy)`,
    );
  }
  const operatorOptions = policy.strategies.get(name);
  const requestOptions = typeof value === 'string' ? undefined : value.options;
  if (requestOptions === undefined)
    return operatorOptions === undefined ? name : { name, options: operatorOptions };
  if (!isObject(requestOptions)) throw badRequest('invalid-config', `${field}.options must be a JSON object`);
  const options: Record<string, unknown> = { ...operatorOptions };
  for (const [key, entry] of Object.entries(requestOptions)) {
    const optionField = `${field}.options.${key}`;
    if (key === 'model') {
      options[key] = pickModel(optionField, entry);
    } else if (name === 'pipeline' && key === 'stages') {
      // A pipeline's stages are strategies themselves, each checked like a top-level one.
      if (!Array.isArray(entry)) throw badRequest('invalid-config', `${optionField} must be a list`);
      options[key] = entry.map((stage, index) =>
        checkStrategy(stage, `${optionField}[${index}]`, policy, pickModel),
      );
    } else if (policy.options.has(`${name}.${key}`) || policy.options.has(`${name}.*`)) {
      options[key] = entry;
    } else {
      throw notAllowed(
        optionField,
        `option "${key}" of strategy "${name}" is set by the server operator (see --allow-option ${name}.${key})`,
      );
    }
  }
  return { name, options: options as JSONObject };
}

/**
 * Checks the operator's allowances at start-up: every allowed strategy is installed, strategies and models
 * that need a provider have one, and every allowed option names an allowed strategy.
 */
export async function verifyRequestPolicy(policy: RequestPolicy, registry: StrategyRegistry): Promise<void> {
  for (const name of policy.strategies.keys()) await registry.definition(name);
  const providerAllowance = policy.provider === undefined ? providerAllowanceOf(policy, registry) : undefined;
  if (providerAllowance !== undefined) {
    throw usageError(
      `${providerAllowance} needs a provider: add --provider (and its API key) or a "provider" in the config`,
    );
  }
  if (policy.provider === undefined && policy.models.size > 0) {
    throw usageError(
      '--allow-model needs a provider: add --provider (and its API key) or a "provider" in the config',
    );
  }
  for (const option of policy.options) {
    const match = /^([^.]+)\.(.+)$/.exec(option);
    if (match === null)
      throw usageError(`--allow-option takes strategy.option or strategy.*, got "${option}"`);
    if (!policy.strategies.has(match[1]!)) {
      throw usageError(
        `--allow-option ${option}: strategy "${match[1]}" is not allowed for requests (allowed: ${listOf(policy.strategies.keys())}; see --allow-strategy)`,
      );
    }
  }
}

/**
 * The allowance that lets a request run a strategy that calls the provider, as its definition says: a strategy
 * allowed with operator options that need one (a summarization without `maxOutputTokens: 0`), or an option a
 * request may set, where the strategy needs one with that option left to the request (its default). A request
 * that turns a provider on some other way is refused when it comes (see `mergeConfig`).
 */
function providerAllowanceOf(policy: RequestPolicy, registry: StrategyRegistry): string | undefined {
  const needs = (name: string, options: JSONObject | undefined) =>
    registry.needsProvider?.({ name, options }) === true;
  for (const [name, options] of policy.strategies) {
    if (needs(name, options)) return `--allow-strategy ${name}`;
    for (const option of policy.options) {
      const key = option.startsWith(`${name}.`) ? option.slice(name.length + 1) : undefined;
      if (key === undefined) continue;
      const left =
        key === '*'
          ? {}
          : Object.fromEntries(Object.entries(options ?? {}).filter(([optionName]) => optionName !== key));
      if (needs(name, left)) return `--allow-option ${option}`;
    }
  }
  return undefined;
}
