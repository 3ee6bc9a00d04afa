import { describe, expect, it } from 'vitest';
import { tokenReadmeFigures } from './readme-figures.js';
import type { RowCounts, SpreadCounts, TextSpread, ThroughputSet, TokenResults } from './token-results.js';

const exact = (features: number): RowCounts => ({
  o200k: { exact: 1000, fast: 1000, features },
  cl100k: { exact: 1000, fast: 1000, features },
  quarter: 1000,
});

function textSpread(lowest: number, under: number): TextSpread {
  return {
    counts: exact(1000),
    lowest: { o200k: lowest, cl100k: 0 },
    highest: { o200k: 0.02, cl100k: 0.02 },
    texts: 40,
    under: { o200k: under, cl100k: 0 },
  };
}

const spread = (lowest: number, highest: number): SpreadCounts => ({
  counts: exact(1000),
  lowest: { o200k: lowest, cl100k: lowest },
  highest: { o200k: highest, cl100k: highest },
});

const throughputSet = (fast: number, tiktoken: number): ThroughputSet => ({
  texts: 100,
  megabytes: 1,
  rates: { fast, features: fast / 2, quarter: 10_000, tiktoken, gptTokenizer: 1 },
});

function results(overrides: Partial<TokenResults> = {}): TokenResults {
  return {
    date: '2026-01-01',
    node: 'v20.0.0',
    cores: 2,
    samplesPerClass: 1,
    calibrationSeed: 1,
    heldBackSeed: 2,
    classes: [{ name: 'prose-english', calibration: exact(1000), heldBack: exact(1010) }],
    transcripts: [{ name: 'agent/one', counts: exact(1000) }],
    transcriptTexts: {
      all: textSpread(-0.01, 0),
      sources: [{ source: 'agent', spread: textSpread(-0.01, 0) }],
    },
    heldBackClasses: [],
    vocabularyCounts: {
      o200k: { texts: 43, differing: 0, largestDifference: 0 },
      cl100k: { texts: 43, differing: 0, largestDifference: 0 },
    },
    languages: [],
    anthropicUsage: [],
    runs: 5,
    throughput: { transcripts: throughputSet(120, 2), heldBack: throughputSet(30, 2) },
    incremental: {
      messages: 10,
      estimatedTokens: 1000,
      scratchSeconds: 1,
      memoizedSeconds: 0.001,
      anchoredSeconds: 0.001,
    },
    ...overrides,
  };
}

const targetRow = (figures: string, start: string) =>
  figures.split('\n').find((line) => line.startsWith(`| ${start}`)) ?? '';

describe('tokenReadmeFigures', () => {
  it('counts every long transcript text in the under-count target, so one text under fails it', () => {
    const failing = textSpread(-0.061, 1);
    const figures = tokenReadmeFigures(
      results({ transcriptTexts: { all: failing, sources: [{ source: 'agent', spread: failing }] } }),
    );
    const row = targetRow(figures, 'o200k, `vocabulary: false` (the features): never more than 5% under');
    expect(row).toContain('transcript text of 1,000 characters or more');
    expect(row).toContain('worst -6.1% (1 of 43 outside)');
    expect(row).toContain('**not met**');
    expect(figures).toContain('| agent | 40 | **-6.1% … +2.0%** | 1 |');
    expect(
      targetRow(figures, 'cl100k, `vocabulary: false` (the features): never more than 5% under'),
    ).toContain('| met |');
  });

  it('sets the speed goal on the transcripts, not on the held-back corpus', () => {
    const met = tokenReadmeFigures(results());
    expect(targetRow(met, 'at least 50× faster')).toBe(
      '| at least 50× faster than tiktoken on the shared transcripts, by default | 60× | met |',
    );
    const missed = tokenReadmeFigures(
      results({ throughput: { transcripts: throughputSet(80, 2), heldBack: throughputSet(200, 2) } }),
    );
    expect(targetRow(missed, 'at least 50× faster')).toContain('40× | **not met**');
    expect(targetRow(met, 'the same with `vocabulary: false`')).toContain('| 30× | **not met** |');
  });

  it('labels the held-back languages and holds their catalogs to the natural-text target', () => {
    const figures = tokenReadmeFigures(
      results({
        languages: [
          {
            name: 'de',
            group: 'fitted',
            fittedCatalogs: spread(-0.01, 0.02),
            heldBackCatalogs: spread(-0.02, 0.03),
          },
          { name: 'nl', group: 'heldBack', heldBackCatalogs: spread(-0.08, 0.01) },
          { name: 'fi', group: 'heldBack', heldBackCatalogs: spread(-0.03, 0.04) },
        ],
      }),
    );
    expect(figures).toContain('| fi (held back) |');
    expect(targetRow(figures, 'o200k, `vocabulary: false`: natural text of fitted catalogs')).toContain(
      '-1.0% to +2.0% | met |',
    );
    expect(targetRow(figures, 'o200k, `vocabulary: false`: natural text of held-back catalogs')).toContain(
      '-8.0% to +4.0% | **not met**',
    );
  });

  it('holds the default to tiktoken text by text, and says by how much a count differs', () => {
    const exactEverywhere = tokenReadmeFigures(results());
    expect(targetRow(exactEverywhere, 'o200k, by default (through the vocabulary)')).toContain(
      "all 43 counts equal tiktoken's | met |",
    );
    const differing = tokenReadmeFigures(
      results({
        vocabularyCounts: {
          o200k: { texts: 43, differing: 2, largestDifference: 0.012 },
          cl100k: { texts: 43, differing: 0, largestDifference: 0 },
        },
      }),
    );
    expect(targetRow(differing, 'o200k, by default (through the vocabulary)')).toContain(
      "2 of 43 counts differ from tiktoken's (by up to 1.2%) | **not met**",
    );
    expect(targetRow(differing, 'cl100k, by default (through the vocabulary)')).toContain('| met |');
  });
});
