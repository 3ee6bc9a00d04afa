import { createTokenCounter, toolCallsOf, verifyCompaction } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { loadTranscripts } from './load-transcripts.js';
import { missingTranscriptsMessage, transcriptsDirectory } from './transcripts-directory.js';

const directory = transcriptsDirectory();

describe.skipIf(directory === undefined)(
  `real transcripts (${directory ?? missingTranscriptsMessage})`,
  () => {
    const transcripts = loadTranscripts();

    it('reads every format into valid core histories', () => {
      const sources = new Set(transcripts.map((transcript) => transcript.source));
      expect([...sources].sort()).toEqual([
        'claude-code',
        'mini-swe-agent',
        'openhands',
        'swe-agent',
        'tau-bench',
      ]);
      for (const transcript of transcripts) {
        expect(transcript.messages.length, transcript.name).toBeGreaterThan(2);
        const violations = verifyCompaction({
          before: transcript.messages,
          after: transcript.messages,
          counter: createTokenCounter(),
        });
        expect(violations, transcript.name).toEqual([]);
      }
    });

    it('turns mini-swe-agent bash blocks and outputs into tool calls and results', () => {
      const django = transcripts.find(
        (transcript) => transcript.name === 'mini-swe-agent/django__django-16560',
      )!;
      expect(django.messages).toHaveLength(292);
      const calls = django.messages.flatMap(toolCallsOf);
      expect(calls.length).toBeGreaterThan(100);
      expect(calls[0]?.input).toHaveProperty('command');
      expect(django.messages.filter((message) => message.role === 'tool').length).toBe(
        calls.length - (django.messages.at(-1)?.role === 'assistant' ? 1 : 0),
      );
    });

    it('answers SWE-agent tool_call_ids, merges Claude Code responses, keeps tau-bench actions', () => {
      const swe = transcripts.find((transcript) => transcript.source === 'swe-agent')!;
      expect(swe.messages.some((message) => message.role === 'tool')).toBe(true);
      const session = transcripts.find(
        (transcript) => transcript.name === 'claude-code/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68',
      )!;
      const first = session.messages.find((message) => message.role === 'assistant')!;
      expect(first.content.map((part) => part.type)).toEqual([
        'reasoning',
        'text',
        'tool-call',
        'tool-call',
        'tool-call',
      ]);
      const tau = transcripts.filter((transcript) => transcript.source === 'tau-bench');
      expect(tau).toHaveLength(20);
      expect(tau[0]?.details?.expectedActions).toBeInstanceOf(Array);
    });
  },
);
