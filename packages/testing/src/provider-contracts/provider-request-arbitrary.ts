import fc from 'fast-check';
import { createIdSource, type IdSource } from './id-source.js';
import type { JSONRecord } from './json-record.js';
import {
  type ProviderRequestArbitrarySettings,
  resolveRequestArbitrarySettings,
} from './provider-request-arbitrary-settings.js';
import { proseArbitrary, resultTextArbitrary } from './request-text-arbitrary.js';

/** The part of a generated request's plan every provider shares: its rounds, how it ends, whether it thinks. */
export interface ConversationPlan<Round, FinalLoop, FollowUp> {
  /** The rounds after the original task, each with the user's follow-up when the model's turn is over. */
  rounds: Array<{ round: Round; followUp: FollowUp }>;
  /** The newest user request. */
  newest: string;
  /** The tool loop the request ends in, when {@link endsInToolLoop}. */
  finalLoop: FinalLoop;
  endsInToolLoop: boolean;
  /** Extended thinking (Anthropic) or reasoning (OpenAI). */
  thinking: boolean;
}

/** What a provider's generator draws itself: its own plan and the arbitraries of its rounds. */
export interface ProviderPlanParts<Plan, Round, FinalLoop, FollowUp> {
  /** The provider's own plan: system prompt, task, attachments, provider settings. */
  plan: fc.Arbitrary<Plan>;
  round: fc.Arbitrary<Round>;
  finalLoop: fc.Arbitrary<FinalLoop>;
  followUp: fc.Arbitrary<FollowUp>;
}

/**
 * A provider's request generator: its own plan joined with the shared conversation plan (drawn as the settings
 * ask, a boolean setting left out being either value), built into a request with a fresh {@link IdSource} so
 * that generation stays deterministic for the same plan.
 */
export function providerRequestArbitrary<Plan, Round, FinalLoop, FollowUp>(
  settings: ProviderRequestArbitrarySettings,
  parts: ProviderPlanParts<Plan, Round, FinalLoop, FollowUp>,
  build: (plan: NoInfer<Plan> & ConversationPlan<Round, FinalLoop, FollowUp>, ids: IdSource) => JSONRecord,
): fc.Arbitrary<JSONRecord> {
  const resolved = resolveRequestArbitrarySettings(settings);
  const either = (setting: boolean | undefined) =>
    setting === undefined ? fc.boolean() : fc.constant(setting);
  const conversation = fc.record({
    rounds: fc.array(fc.record({ round: parts.round, followUp: parts.followUp }), {
      minLength: resolved.minRounds,
      maxLength: resolved.maxRounds,
    }),
    newest: proseArbitrary(),
    finalLoop: parts.finalLoop,
    endsInToolLoop: either(resolved.endsInToolLoop),
    thinking: either(resolved.thinking),
  });
  return fc
    .tuple(parts.plan, conversation)
    .map(([plan, drawn]) => build({ ...plan, ...drawn }, createIdSource()));
}

/** Tool result texts as long as the settings allow. */
export function resultTextFor(settings: ProviderRequestArbitrarySettings): fc.Arbitrary<string> {
  return resultTextArbitrary(resolveRequestArbitrarySettings(settings).maxResultLength);
}
