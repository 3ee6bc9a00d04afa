import {
  type ArchivedItem,
  BudgetUnreachableError,
  type CompactionStrategy,
  compactionMetadataOf,
  latestUserMessageIndex,
  type Message,
  openingIndexes,
  withCompactionMetadata,
} from '@compaction/core';
import { dropOldestTurns } from './drop-oldest-turns.js';

const wrap = (
  name: string,
  transform: (messages: readonly Message[], output: Message[]) => Message[],
): CompactionStrategy => ({
  specificationVersion: 'v1',
  name,
  async compact(input) {
    const output = await dropOldestTurns().compact(input);
    return { ...output, messages: transform(input.messages, output.messages) };
  },
});

/**
 * Drops the oldest turns, then, when asked to archive, clears the first tool result left with a placeholder
 * naming `recall "<handle>"` and lists `archive(original text)` as what it archived.
 */
const clearsOneResult = (name: string, archive: (text: string) => ArchivedItem[]): CompactionStrategy => ({
  specificationVersion: 'v1',
  name,
  async compact(input) {
    const output = await dropOldestTurns().compact(input);
    const index = output.messages.findIndex((message) => message.role === 'tool');
    const message = output.messages[index];
    if (input.archive !== true || message?.role !== 'tool') return output;
    const [part, ...rest] = message.content;
    const text = typeof part!.output === 'string' ? part!.output : '';
    // Only results longer than the placeholder: clearing a short one could break the limit first, and the
    // broken rule must be the archive's.
    if (text.length < 200) return output;
    const cleared = { ...part!, output: '[output cleared: recall "r1"]' };
    const messages = output.messages.slice();
    messages[index] = withCompactionMetadata(message, { kind: 'modified', round: input.round }, [
      cleared,
      ...rest,
    ]);
    return { ...output, messages, archived: archive(text) };
  },
});

/** Deliberately broken strategies, each breaking one rule, to prove the suite catches them. */
export const brokenStrategies = {
  /** Drops the first tool result but keeps its call. */
  'drops-a-tool-result': wrap('drops-a-tool-result', (_, output) => {
    const index = output.findIndex((message) => message.role === 'tool');
    return index === -1 ? output : output.filter((_, position) => position !== index);
  }),
  /** Drops the system prompt. */
  'drops-the-system-prompt': wrap('drops-the-system-prompt', (_, output) =>
    output.filter((message) => message.role !== 'system'),
  ),
  /** Rewrites the newest user message without marking it. */
  'edits-without-marking': wrap('edits-without-marking', (_, output) =>
    output.map((message) =>
      message.role === 'user'
        ? { ...message, content: [{ type: 'text' as const, text: 'rewritten' }] }
        : message,
    ),
  ),
  /** Sorts the input in place. */
  'mutates-its-input': {
    specificationVersion: 'v1',
    name: 'mutates-its-input',
    async compact(input) {
      (input.messages as Message[]).reverse();
      return { messages: [...input.messages] };
    },
  } satisfies CompactionStrategy,
  /** Marks its output with a random round number. */
  nondeterministic: wrap('nondeterministic', (_, output) =>
    output.length === 0
      ? output
      : [
          ...output.slice(0, -1),
          withCompactionMetadata(output.at(-1)!, { kind: 'modified', round: Math.random() }),
        ],
  ),
  /** Throws a plain TypeError on any input. */
  'crashes-untyped': {
    specificationVersion: 'v1',
    name: 'crashes-untyped',
    async compact() {
      throw new TypeError('cannot read properties of undefined');
    },
  } satisfies CompactionStrategy,
  /** Passes every message through, whatever the budget. */
  'ignores-the-budget': {
    specificationVersion: 'v1',
    name: 'ignores-the-budget',
    async compact(input) {
      return { messages: [...input.messages] };
    },
  } satisfies CompactionStrategy,
  /** Gives up on every budget, reachable or not. */
  'gives-up-always': {
    specificationVersion: 'v1',
    name: 'gives-up-always',
    async compact(input) {
      const best = input.counter.estimate(input.messages);
      throw new BudgetUnreachableError({
        target: input.budget.target,
        best,
        limit: input.budget.limit,
        reason: 'it never tries',
      });
    },
  } satisfies CompactionStrategy,
  /** Drops the newest user request, whatever the budget. */
  'drops-the-newest-request': wrap('drops-the-newest-request', (input, output) => {
    const newest = input[latestUserMessageIndex(input)];
    return output.filter((message) => message !== newest);
  }),
  /** Drops the second user message of the opening (the task, when context comes first), as Codex's was. */
  'drops-an-opening-message': wrap('drops-an-opening-message', (input, output) => {
    const openingUsers = openingIndexes(input).filter((index) => input[index]!.role === 'user');
    const second = openingUsers.length > 1 ? input[openingUsers[1]!] : undefined;
    return output.filter((message) => message !== second);
  }),
  /**
   * Leaves a new removal marker at every compaction, right after the opening, and keeps every marker an
   * earlier one left: the pile-up of notes the proxy once sent.
   */
  'piles-up-markers': wrap('piles-up-markers', (input, output) => {
    const removed = input.length - output.filter((message) => input.includes(message)).length;
    if (removed === 0) return output;
    const earlier = input.filter(
      (message) => compactionMetadataOf(message)?.kind === 'marker' && !output.includes(message),
    );
    const marker = withCompactionMetadata<Message>(
      { role: 'user', content: [{ type: 'text', text: `[${removed} earlier messages skipped.]` }] },
      { kind: 'marker', removedMessages: removed },
    );
    const at = Math.max(-1, ...openingIndexes(output)) + 1;
    return [...output.slice(0, at), marker, ...earlier, ...output.slice(at)];
  }),
  /** Names a recall handle in a placeholder, and archives nothing. */
  'names-an-unarchived-handle': clearsOneResult('names-an-unarchived-handle', () => []),
  /** Names a recall handle for a cleared result, and archives something else under it. */
  'archives-the-wrong-text': clearsOneResult('archives-the-wrong-text', (text) => [
    { handle: 'r1', label: 'bash output', text: `${text} (abridged)` },
  ]),
  /** Archives under a handle with a space in it, which the recall tool could not be asked for. */
  'archives-a-bad-handle': {
    specificationVersion: 'v1',
    name: 'archives-a-bad-handle',
    async compact(input) {
      const output = await dropOldestTurns().compact(input);
      return input.archive === true
        ? { ...output, archived: [{ handle: 'r 1', label: 'x', text: 'x' }] }
        : output;
    },
  } satisfies CompactionStrategy,
  /**
   * Takes no notice of the pins on the agent's plan (`pinnedBy: 'plan'`), as a strategy that found plan
   * messages by text or treated their pins as its own would: an old plan goes with the oldest turns.
   */
  'ignores-plan-pins': {
    specificationVersion: 'v1',
    name: 'ignores-plan-pins',
    async compact(input) {
      const originals = new Map<Message, Message>();
      const messages = input.messages.map((message) => {
        const marks = compactionMetadataOf(message);
        if (marks?.pinnedBy !== 'plan') return message;
        const unpinned = withCompactionMetadata(message, { pinned: false });
        originals.set(unpinned, message);
        return unpinned;
      });
      const output = await dropOldestTurns().compact({ ...input, messages });
      // What it keeps goes back as it came, so the only rule it breaks is the plan's.
      return { ...output, messages: output.messages.map((message) => originals.get(message) ?? message) };
    },
  } satisfies CompactionStrategy,
  /** Answers every history, malformed ones too, with an empty one: valid, but without what must be kept. */
  'drops-everything': {
    specificationVersion: 'v1',
    name: 'drops-everything',
    async compact() {
      return { messages: [] };
    },
  } satisfies CompactionStrategy,
};
