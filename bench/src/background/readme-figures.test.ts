import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedSection, readmePath } from '../readme/generated-section.js';
import {
  type BackgroundModeResult,
  type BackgroundResults,
  type BackgroundSettingResult,
  backgroundResultsFile,
} from './background-results.js';
import { backgroundReadmeFigures, backgroundSectionName } from './readme-figures.js';
import { budgetShares } from './replay.js';
import { windowSettings } from './window-settings.js';

const [stress, headroom] = windowSettings;

function mode(overrides: Partial<BackgroundModeResult>): BackgroundModeResult {
  return {
    mode: 'in line',
    transcript: 'all',
    triggerCalls: 4,
    compactions: 4,
    pending: 0,
    p50Milliseconds: 2004,
    p99Milliseconds: 2012,
    overLimitCalls: 0,
    overLimitP99Milliseconds: 0,
    underLimitP99Milliseconds: 2012,
    underTriggerP99Milliseconds: 1,
    summarizerCalls: 4,
    used: 0,
    discarded: 0,
    savedMilliseconds: 0,
    probes: 10,
    keptProbes: 10,
    requestsCost: 1,
    summarizerCost: 0.1,
    cost: 1.1,
    inputTokens: 1000,
    peakRequestTokens: 900,
    ...overrides,
  };
}

function setting(name: string, backgroundP99: number, overLimitCalls: number): BackgroundSettingResult {
  const transcript = {
    name: 'agent/one',
    modelCalls: 20,
    historyTokens: 9000,
    lastCallTokens: 8900,
    largestTurnTokens: 890,
    contextWindow: 6000,
    triggerTokens: 5100,
  };
  return {
    name,
    description: `how ${name} is sized`,
    transcripts: [transcript],
    leftOut: [{ ...transcript, name: 'agent/short', lastCallTokens: 4321, triggerTokens: 13600 }],
    modes: [
      mode({}),
      mode({ mode: 'background', p50Milliseconds: 0, p99Milliseconds: backgroundP99, overLimitCalls }),
    ],
    checks: {
      p99GoalMilliseconds: 50,
      p99Met: backgroundP99 < 50,
      underLimitP99Met: true,
      overLimitCalls,
      retentionPoints: 1,
      retentionDifferencePoints: 0,
      retentionMet: true,
      billShare: 0.05,
      billDifferenceShare: 0.029,
      billMet: true,
    },
  };
}

const results: BackgroundResults = {
  node: 'v20.0.0',
  cores: 2,
  date: '2026-01-01',
  summarizerMilliseconds: 2000,
  modelCallMilliseconds: 2000,
  ...budgetShares,
  prepareAt: 0.84,
  settings: [setting('stress setting', 2038, 11), setting('realistic setting', 7, 0)],
};

describe('the background figures', () => {
  const figures = backgroundReadmeFigures(results);

  it('put both settings side by side: p50, p99 at the trigger, calls over the limit, retention and bill', () => {
    expect(figures).toContain(
      '| stress setting | background | 4 | 0 ms | 2038 ms | 2012 ms | 11 | 100.0% (10/10) | $1.100 |',
    );
    expect(figures).toContain(
      '| realistic setting | background | 4 | 0 ms | 7 ms | 2012 ms | 0 | 100.0% (10/10) | $1.100 |',
    );
    expect(figures).toContain('| realistic setting | in line | 4 | 2004 ms | 2012 ms |');
  });

  it('give the three goals of each setting, met or not', () => {
    expect(figures).toContain(
      '| stress setting | **FAIL** (2038 ms) | **pass** (2012 ms; 11 calls over the limit) | **pass** (+0.0 points) | **pass** (+2.9%) |',
    );
    expect(figures).toContain('| realistic setting | **pass** (7 ms) |');
  });

  it('name each transcript left out of a setting, with its numbers', () => {
    expect(figures).toContain(
      '**realistic setting**: how realistic setting is sized; agent/one (20 model calls',
    );
    expect(figures).toContain(
      'Left out: agent/short (20 model calls, history 9000, largest turn 890): its window would be 6000 with the ' +
        'trigger at 13600, but the last `prepare` is given 4321 tokens uncompacted, so the trigger never fires.',
    );
  });
});

describe('the window settings', () => {
  it('size the stress window to a third of the history', () => {
    expect(stress?.contextWindow({ historyTokens: 9000, largestTurnTokens: 5000 })).toBe(3000);
  });

  it('size the other so the room over the trigger holds the largest turn, and at least a third', () => {
    expect(headroom?.contextWindow({ historyTokens: 5312, largestTurnTokens: 890 })).toBe(6000);
    expect(headroom?.contextWindow({ historyTokens: 60_000, largestTurnTokens: 890 })).toBe(20_000);
  });
});

describe('bench/README.md', () => {
  const saved = backgroundResultsFile.load();

  it('shows the background compaction figures of the saved results (run `pnpm bench:background` to write them)', () => {
    const readme = readFileSync(readmePath, 'utf8');
    expect(generatedSection(readme, backgroundSectionName)).toBe(backgroundReadmeFigures(saved));
  });

  it('was written from a run of both settings of record, each with both modes over all its transcripts', () => {
    expect(saved.settings.map(({ name }) => name)).toEqual(windowSettings.map(({ name }) => name));
    for (const { modes, transcripts } of saved.settings) {
      expect(transcripts.length).toBeGreaterThan(0);
      const all = modes.filter(({ transcript }) => transcript === 'all').map(({ mode }) => mode);
      expect(all).toEqual(['in line', 'background']);
    }
    const savedHeadroom = saved.settings[1]!;
    for (const transcript of savedHeadroom.transcripts) {
      const room = transcript.contextWindow - transcript.triggerTokens;
      expect(room).toBeGreaterThanOrEqual(transcript.largestTurnTokens);
      expect(transcript.lastCallTokens).toBeGreaterThan(transcript.triggerTokens);
    }
    for (const transcript of savedHeadroom.leftOut) {
      expect(transcript.lastCallTokens).toBeLessThanOrEqual(transcript.triggerTokens);
    }
  });
});
