import { withStoredContext } from '@compaction/formats';
import { badRequest, HttpError } from '../errors/http-error.js';
import { type CompactionObserver, strategyLabelOf } from '../observability/service-observability.js';
import { summarizeCompaction } from '../output/compaction-summary.js';
import { type CompactionReport, compactMessages } from '../run-compaction.js';
import { sendJson } from './json-response.js';
import { instructionsOf } from './request-body.js';
import {
  conversationJson,
  parseServedFormat,
  readRequestConversation,
  shapeOf,
} from './request-conversation.js';
import type { RouteContext, RouteHandler } from './route-context.js';

/** `POST /v1/compact` on the event loop: the conversation compacted once, answered in its own format. */
export function compactRoute(context: RouteContext): RouteHandler {
  const { registry, settingsFor, providerFor, readBody, limited } = context;
  return async (request, response) => {
    const input = await readBody(request, ['conversation', 'format', 'config', 'instructions']);
    const settings = settingsFor(input.config);
    const instructions = instructionsOf(input.instructions);
    const format = parseServedFormat(input.format);
    if (input.conversation === undefined) {
      throw badRequest(
        'invalid-request',
        'conversation is required: a provider request, {"messages": [...]} or a list of messages',
      );
    }
    const conversation = await readRequestConversation(input.conversation, format);
    const report = await limited(async (runInSlot) => {
      const provider = await providerFor(settings);
      return runInSlot(() =>
        observedCompaction(context.observer, settings.strategyNames, () =>
          compactMessages(conversation.messages, {
            settings,
            registry,
            targetOfInput: true,
            ...(provider === undefined ? {} : { provider }),
            ...(instructions === undefined ? {} : { instructions }),
            ...withStoredContext(conversation),
            ...(conversation.envelope === undefined ? {} : { envelope: conversation.envelope }),
          }),
        ),
      );
    });
    // Nothing compacted: the conversation as it came (providers cache on the exact prefix).
    const answer = report.compacted
      ? await conversationJson(report.messages, conversation.format, shapeOf(conversation))
      : input.conversation;
    return sendJson(response, 200, {
      conversation: answer,
      report: summarizeCompaction(report, conversation.format),
    });
  };
}

/**
 * Runs a stateless compaction and tells `observer` what it came to: compacted (or by the fallback), or failed.
 * A request refused before compacting (an `HttpError`) is no compaction.
 */
async function observedCompaction(
  observer: CompactionObserver | undefined,
  strategyNames: readonly string[],
  compact: () => Promise<CompactionReport>,
): Promise<CompactionReport> {
  const strategy = strategyLabelOf(strategyNames);
  try {
    const report = await compact();
    if (report.compacted) {
      observer?.compaction({
        strategy,
        trigger: 'manual',
        outcome: report.usedFallback ? 'fallback' : 'compacted',
        tokensBefore: report.before.tokens,
        tokensAfter: report.after.tokens,
      });
    }
    return report;
  } catch (error) {
    if (!HttpError.isInstance(error))
      observer?.compaction({ strategy, trigger: 'manual', outcome: 'failed' });
    throw error;
  }
}
