import { createFastEstimator } from '../packages/core/dist/index.js';
import { compactedRequestViolations } from '../packages/testing/dist/index.js';
import { conversationItems } from './scripted-provider.mjs';

const estimator = createFastEstimator();

/** A note that says earlier messages were left out ("[3 earlier messages skipped ...]"). */
const notePattern = /earlier (?:messages?|items?|turns?)[^\]"]*?(?:skipped|removed|omitted|left out)/gi;

const countNotes = (value) => (JSON.stringify(value).match(notePattern) ?? []).length;

/** The fields besides the conversation that take tokens: system prompt, instructions, tools. */
const headOf = (format, body) =>
  format === 'anthropic'
    ? [body.system ?? null, body.tools ?? null]
    : format === 'openai-responses'
      ? [body.instructions ?? null, body.tools ?? null]
      : [body.tools ?? null];

/** The request as the blocks a prompt cache matches in order: system and tools first, then each item. */
export const cacheBlocks = (format, body) =>
  [headOf(format, body), ...conversationItems(format, body)].map((block) => JSON.stringify(block));

/** How many leading blocks two requests share. */
export function sharedBlocks(earlier, later) {
  let shared = 0;
  while (shared < earlier.length && shared < later.length && earlier[shared] === later[shared]) shared++;
  return shared;
}

/**
 * Removed spans of the original: runs of its items that the forwarded request does not hold, matching the
 * forwarded items that are kept verbatim in order.
 */
export function removedSpans(originalItems, forwardedItems) {
  const kept = new Set();
  let position = 0;
  for (const item of forwardedItems) {
    const text = JSON.stringify(item);
    for (let index = position; index < originalItems.length; index++) {
      if (JSON.stringify(originalItems[index]) === text) {
        kept.add(index);
        position = index + 1;
        break;
      }
    }
  }
  let spans = 0;
  for (let index = 0; index < originalItems.length; index++) {
    if (!kept.has(index) && (index === 0 || kept.has(index - 1))) spans++;
  }
  return spans;
}

/**
 * What names an item: for a tool result, its type and the call it answers (a proxy may shorten its text); for
 * anything else, the whole item, which must then be kept verbatim.
 */
export function identityOf(item) {
  if (item === null || typeof item !== 'object') return JSON.stringify(item);
  const content = Array.isArray(item.content) ? item.content : [];
  const answered = content.filter((block) => block?.type === 'tool_result').map((block) => block.tool_use_id);
  if (answered.length > 0) return JSON.stringify(['tool_result', item.role, answered]);
  if (typeof item.tool_call_id === 'string') return JSON.stringify(['tool', item.tool_call_id]);
  if (typeof item.type === 'string' && item.type.endsWith('_output')) {
    return JSON.stringify([item.type, item.call_id ?? item.id]);
  }
  return JSON.stringify(item);
}

/** The rules a forwarded request breaks that its original keeps. */
export function newViolations(format, original, forwarded) {
  const own = new Set(
    compactedRequestViolations(format, original, original).map((violation) => violation.rule),
  );
  return compactedRequestViolations(format, original, forwarded).filter(
    (violation) => !own.has(violation.rule),
  );
}

/** The checks of one forwarded request against what the agent sent. */
export function checkForwarded({ format, task, original, forwarded }) {
  const originalItems = conversationItems(format, original);
  const forwardedItems = conversationItems(format, forwarded);
  const notes = countNotes(forwardedItems) - countNotes(originalItems);
  const notesPerItem = Math.max(0, ...forwardedItems.map(countNotes));
  return {
    compacted: JSON.stringify(original) !== JSON.stringify(forwarded),
    violations: newViolations(format, original, forwarded),
    taskKept: JSON.stringify(forwarded).includes(JSON.stringify(task).slice(1, -1)),
    // The agent's newest turn (the tool result or message it just added) is what the model answers.
    newestKept:
      originalItems.length === 0 ||
      forwardedItems.some((item) => identityOf(item) === identityOf(originalItems.at(-1))),
    notes,
    spans: removedSpans(originalItems, forwardedItems),
    notesPileUp: notes > removedSpans(originalItems, forwardedItems) || notesPerItem > 1,
  };
}

const tokensOf = (block) => estimator.countText(block);

/**
 * Bills requests with a prompt cache: the longest prefix shared with the previous request is read at 0.1 of
 * the base price, the rest is written at 1.25. Returns the total in base-price tokens, and per request whether
 * the whole previous request was reused (the cached prefix held).
 */
export function billWithCache(format, bodies) {
  let total = 0;
  let previous = [];
  const held = [];
  for (const body of bodies) {
    const blocks = cacheBlocks(format, body);
    const shared = sharedBlocks(previous, blocks);
    if (previous.length > 0) held.push(shared === previous.length);
    blocks.forEach((block, index) => {
      total += tokensOf(block) * (index < shared ? 0.1 : 1.25);
    });
    previous = blocks;
  }
  return { total, held };
}
