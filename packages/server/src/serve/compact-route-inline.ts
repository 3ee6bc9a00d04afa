import { withStoredContext } from '@compaction/formats';
import { badRequest } from '../errors/http-error.js';
import { summarizeCompaction } from '../output/compaction-summary.js';
import { compactMessages } from '../run-compaction.js';
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
        compactMessages(conversation.messages, {
          settings,
          registry,
          targetOfInput: true,
          ...(provider === undefined ? {} : { provider }),
          ...(instructions === undefined ? {} : { instructions }),
          ...withStoredContext(conversation),
          ...(conversation.envelope === undefined ? {} : { envelope: conversation.envelope }),
        }),
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
