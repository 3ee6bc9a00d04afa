import {
  codingSources,
  loadTranscripts,
  missingTranscriptsMessage,
  transcriptsDirectory,
} from '@compaction/testing/transcripts';
import { describe, expect, it } from 'vitest';
import { policies } from './all-policies.js';
import { evaluatePolicy } from './evaluate-policy.js';
import { applicableProbes, extractProbes } from './probes.js';

const directory = transcriptsDirectory();

describe.skipIf(directory === undefined)(
  `probes of the real transcripts (${directory ?? missingTranscriptsMessage})`,
  () => {
    const transcripts = directory === undefined ? [] : loadTranscripts();

    it('every transcript has an original task, and the coding ones contain every path and command probe', () => {
      for (const transcript of transcripts) {
        const probes = extractProbes(transcript);
        expect(
          probes.filter((probe) => probe.kind === 'task'),
          transcript.name,
        ).toHaveLength(1);
        if (!codingSources.includes(transcript.source)) continue;
        const { absent } = applicableProbes(probes, transcript.messages);
        expect(absent, transcript.name).toEqual([]);
      }
    });

    it('the mini-swe-agent runs have commands, paths and errors, and tau-bench its expected arguments', () => {
      const django = transcripts.find((transcript) => transcript.name.includes('django'))!;
      const kinds = new Set(extractProbes(django).map((probe) => probe.kind));
      expect([...kinds].sort()).toEqual(['command', 'error', 'file', 'task']);
      const tau = transcripts.find((transcript) => transcript.name === 'tau-bench/task-0-trial-0')!;
      const values = extractProbes(tau)
        .filter((probe) => probe.kind === 'expected-action')
        .map((probe) => probe.text);
      expect(values).toContain('mia_li_3668');
      expect(values).toContain('certificate_7504069');
    });

    it('without compaction everything is kept; a policy that drops turns at 32k keeps less on django', async () => {
      const django = transcripts.find((transcript) => transcript.name.includes('django'))!;
      const { applicable } = applicableProbes(extractProbes(django), django.messages);
      const window = { label: '32k', contextWindow: 32_000 };
      const byId = (id: string) => policies.find((policy) => policy.id === id)!;
      const evaluate = (id: string) =>
        evaluatePolicy({ transcript: django, coding: true, probes: applicable, policy: byId(id), window });
      const none = await evaluate('none');
      expect(none.retention.share).toBe(1);
      expect(none.billedInputTokens).toBe(none.baselineBilledInputTokens);
      expect(none.overLimitSteps).toBeGreaterThan(0);
      const sliding = await evaluate('sliding');
      expect(sliding.overLimitSteps).toBe(0);
      expect(sliding.compactions).toBeGreaterThan(0);
      expect(sliding.retention.share).toBeLessThan(1);
      expect(sliding.lost.every((entry) => entry.reason === 'dropped')).toBe(true);
      expect(sliding.inputTokens).toBeLessThan(none.inputTokens);
      // Reference policies send what they produce, even over the limit: masking keeps going past it.
      const masking = await evaluate('masking-10');
      expect(masking.compactions).toBeGreaterThan(sliding.compactions);
      expect(masking.overLimitSteps).toBeGreaterThan(0);
      expect(masking.lost.every((entry) => entry.reason === 'shortened')).toBe(true);
    });
  },
);
