import { anthropicMessagesViolations } from './anthropic-messages-violations.js';
import { compactedAnthropicViolations } from './compacted-anthropic-rules.js';
import { compactedOpenAIChatViolations } from './compacted-openai-chat-rules.js';
import { compactedOpenAIResponsesViolations } from './compacted-openai-responses-rules.js';
import type { ContractViolation } from './contract-violation.js';
import type { JSONRecord } from './json-record.js';
import { openAIChatViolations } from './openai-chat-violations.js';
import { openAIResponsesViolations } from './openai-responses-violations.js';

/** The request formats the contract kit checks. */
export type ProviderRequestFormat = 'anthropic' | 'openai-chat' | 'openai-responses';

const formats = {
  anthropic: { validate: anthropicMessagesViolations, compare: compactedAnthropicViolations },
  'openai-chat': { validate: openAIChatViolations, compare: compactedOpenAIChatViolations },
  'openai-responses': { validate: openAIResponsesViolations, compare: compactedOpenAIResponsesViolations },
} satisfies Record<ProviderRequestFormat, unknown>;

/**
 * Checks a compacted request against its original: the compacted request itself keeps every rule of its format
 * (whatever the original broke), and between the two the system prompt or instructions, the request settings
 * and the newest user request are kept verbatim, nothing (call, result, item) is invented, and thinking and
 * reasoning come back unmodified and with the items they came with. Empty when all hold.
 */
export function compactedRequestViolations(
  format: ProviderRequestFormat,
  original: unknown,
  compacted: unknown,
): ContractViolation[] {
  const { validate, compare } = formats[format];
  const violations = validate(compacted);
  if (violations.some(isShapeViolation)) return violations;
  const originalShape = validate(original).filter(isShapeViolation);
  if (originalShape.length > 0) {
    return [
      ...violations,
      ...originalShape.map((violation) => ({
        rule: 'compacted.original-readable',
        path: violation.path,
        message: `the original request cannot be read: ${violation.message}`,
      })),
    ];
  }
  return [...violations, ...compare(original as JSONRecord, compacted as JSONRecord)];
}

function isShapeViolation(violation: ContractViolation): boolean {
  return violation.rule.endsWith('.request-shape');
}
