import {
  type AssistantMessage,
  compactionMetadataOf,
  createTokenCounter,
  latestUserMessageIndex,
  type Message,
  textOf,
} from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { assistant, calls, results, system, user } from './__fixtures__/messages.js';
import { recallHint } from './archive-item.js';
import {
  archivedMessages,
  assembleKeptTurns,
  type RemovalMarkerSettings,
  removalMarker,
  removalMarkerCost,
} from './kept-turns.js';
import { renderArchivedMessages } from './render-archived-messages.js';
import { planTurns } from './turn-plan.js';

const markerSettings: RemovalMarkerSettings = {
  markers: true,
  text: (count) => `[${count} removed]`,
  round: 1,
  strategy: 'test',
};

const thinking = (text: string): AssistantMessage => ({
  role: 'assistant',
  content: [
    { type: 'reasoning', text: 'plan', signature: 'sig' },
    { type: 'text', text },
  ],
});

const texts = (messages: readonly Message[]) => messages.map(textOf);

function assemble(messages: Message[], kept: number[], settings = markerSettings) {
  const plan = planTurns(messages, createTokenCounter());
  return assembleKeptTurns(messages, plan, Uint8Array.from(kept), settings);
}

describe('removalMarker', () => {
  it('is a user message marked as a marker, which is never taken for a user request', () => {
    const marker = removalMarker(3, markerSettings);
    expect(marker).toMatchObject({ role: 'user', content: [{ type: 'text', text: '[3 removed]' }] });
    expect(compactionMetadataOf(marker)).toEqual({
      kind: 'marker',
      round: 1,
      strategy: 'test',
      removedMessages: 3,
    });
    expect(latestUserMessageIndex([marker])).toBe(-1);
    expect(latestUserMessageIndex([user('request'), marker])).toBe(0);
  });
});

describe('assembleKeptTurns', () => {
  const messages = [
    system('s'),
    user('the task'),
    assistant('one'),
    user('two'),
    assistant('three'),
    user('newest request'),
  ];

  it('puts one marker in each gap a kept turn follows, and uses replacements for kept turns', () => {
    const plan = planTurns(messages, createTokenCounter());
    const kept = Uint8Array.from([1, 1, 0, 0, 1, 1]);
    const replacement = assistant('three, shortened');
    const assembled = assembleKeptTurns(messages, plan, kept, markerSettings, new Map([[4, [replacement]]]));
    // Never right after the opening (it would join the task's message): after the first kept model turn.
    expect(texts(assembled.messages)).toEqual([
      's',
      'the task',
      'three, shortened',
      '[2 removed]',
      'newest request',
    ]);
    expect(assembled.messages[3]!.role).toBe('user');
    expect(assembled.messages[4]).toBe(messages[5]);
    expect(assembled).toMatchObject({ removedMessages: 2, removedTurns: 2, markers: 1 });
  });

  it('puts no marker inside the opening, and none where only user turns would stand around it', () => {
    const assembled = assemble(messages, [1, 0, 0, 1, 1, 1]);
    expect(texts(assembled.messages)).toEqual(['s', 'two', 'three', '[2 removed]', 'newest request']);
    expect(assembled.markers).toBe(1);
    const last = assemble(messages, [1, 1, 0, 0, 0, 1]);
    expect(texts(last.messages)).toEqual(['s', 'the task', 'newest request']);
    expect(last).toMatchObject({ removedMessages: 3, markers: 0 });
  });

  it('never ends the history with a marker: removed messages at the end are only counted', () => {
    const trailing = [user('the task'), calls('a'), results('a'), assistant('done'), assistant('more')];
    const assembled = assemble(trailing, [1, 1, 0, 0]);
    expect(assembled.messages).toEqual(trailing.slice(0, 3));
    expect(assembled).toMatchObject({ removedMessages: 2, removedTurns: 2, markers: 0 });
  });

  it('without markers, still separates two assistant messages that would merge ahead of reasoning', () => {
    const history = [
      user('the task'),
      assistant('answer'),
      user('old request'),
      thinking('next'),
      user('now'),
    ];
    const quiet = { ...markerSettings, markers: false };
    // Only "old request" goes: "answer" and the reasoning turn would meet.
    const separated = assemble(history, [1, 1, 0, 1, 1], quiet);
    expect(texts(separated.messages)).toEqual(['the task', 'answer', '[1 removed]', 'next', 'now']);
    expect(separated.markers).toBe(1);
    // Without reasoning after the gap, no marker.
    const plain = [
      user('the task'),
      assistant('answer'),
      user('old request'),
      assistant('next'),
      user('now'),
    ];
    expect(assemble(plain, [1, 1, 0, 1, 1], quiet).markers).toBe(0);
  });
});

describe('assembleKeptTurns with archive', () => {
  const archiving: RemovalMarkerSettings = {
    ...markerSettings,
    text: (count, recall) => `[${count} removed${recall === undefined ? '' : `; ${recall}`}]`,
    archive: true,
  };

  it('names in each marker the handle of the messages it stands for, and archives their transcript', () => {
    const messages = [
      user('task'),
      calls('a'),
      results('a'),
      user('more'),
      calls('b'),
      results('b'),
      calls('c'),
      results('c'),
      user('now'),
    ];
    const assembled = assemble(messages, [1, 0, 0, 0, 1, 1], archiving);
    const dropped = messages.slice(1, 6);
    expect(assembled.archived).toEqual([archivedMessages(dropped)]);
    expect(assembled.archived![0]!.text).toBe(renderArchivedMessages(dropped));
    expect(texts(assembled.messages)[3]).toBe(`[5 removed; ${recallHint(assembled.archived![0]!)}]`);
  });

  it('archives nothing and returns no items without archive', () => {
    const messages = [user('task'), calls('a'), results('a'), user('now')];
    expect(assemble(messages, [1, 0, 1]).archived).toBeUndefined();
  });

  it('counts the costliest hint in the cost of a marker', () => {
    const counter = createTokenCounter();
    const marker = removalMarker(9_999_999, archiving, recallHint(archivedMessages([user('x')])));
    expect(removalMarkerCost(counter, archiving)).toBeGreaterThanOrEqual(counter.countMessage(marker));
    expect(removalMarkerCost(counter, archiving)).toBeGreaterThan(removalMarkerCost(counter, markerSettings));
  });
});

describe('assembleKeptTurns after an earlier compaction', () => {
  const noteText = (count: number) => `[${count} earlier messages skipped to fit the context window.]`;
  const settings = { ...markerSettings, text: noteText };
  const earlier = removalMarker(4, settings);
  // The same marker read back from a provider's request: its metadata is gone, its text is all there is.
  const readBack = user(noteText(4));

  for (const [label, marker] of [
    ['by its metadata', earlier],
    ['by its text, read back from a request', readBack],
  ] as const) {
    it(`merges with an earlier marker found ${label}: one marker, with the cumulative count`, () => {
      const history = [user('task'), marker, calls('a'), results('a'), calls('b'), results('b'), user('now')];
      const plan = planTurns(history, createTokenCounter());
      const merged = assembleKeptTurns(history, plan, Uint8Array.from([1, 1, 0, 1, 1]), settings);
      // After the first kept model turn: right after the task, it would join the task's message.
      expect(merged.messages).toEqual([
        history[0],
        history[4],
        history[5],
        removalMarker(6, settings),
        history[6],
      ]);
      expect(merged.messages[0]).toBe(history[0]);
      // Nothing more removed around it: the earlier marker stays, the same object.
      const unchanged = assembleKeptTurns(history, plan, Uint8Array.from([1, 1, 1, 1, 1]), settings);
      expect(unchanged.messages).toEqual(history);
      expect(unchanged.messages[1]).toBe(marker);
    });
  }
});
