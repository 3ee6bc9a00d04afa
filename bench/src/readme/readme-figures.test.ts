import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliResultsFile } from '../cli/cli-results.js';
import { cliReadmeFigures, cliSectionName } from '../cli/readme-figures.js';
import {
  evaluationReadmeFigures,
  evaluationSectionName,
  evaluationSummaryFile,
} from '../evaluation/readme-figures.js';
import { proxyResultsFile } from '../proxy/proxy-results.js';
import { proxyReadmeFigures, proxySectionName } from '../proxy/readme-figures.js';
import { serveReadmeFigures, serveSectionName } from '../serve/readme-figures.js';
import { serveResultsFile } from '../serve/serve-results.js';
import { strategyReadmeFigures, strategySectionName } from '../strategies/readme-figures.js';
import { strategyResultsFile } from '../strategies/results.js';
import { tokenReadmeFigures, tokenSectionName } from '../tokens/readme-figures.js';
import { tokenResultsFile } from '../tokens/token-results.js';
import { generatedSection, readmePath, withGeneratedSection } from './generated-section.js';

const readme = readFileSync(readmePath, 'utf8');

describe('bench/README.md', () => {
  it('shows the strategy figures of the saved results (run `pnpm bench:strategies` to write them)', () => {
    expect(generatedSection(readme, strategySectionName)).toBe(
      strategyReadmeFigures(strategyResultsFile.load()),
    );
  });

  it('shows the token counting figures of the saved results (run `pnpm bench:tokens` to write them)', () => {
    expect(generatedSection(readme, tokenSectionName)).toBe(tokenReadmeFigures(tokenResultsFile.load()));
  });

  it('shows the CLI startup figures of the saved results (run `pnpm bench:cli` to write them)', () => {
    expect(generatedSection(readme, cliSectionName)).toBe(cliReadmeFigures(cliResultsFile.load()));
  });

  it('shows the serve figures of the saved results (run `pnpm bench:serve` to write them)', () => {
    expect(generatedSection(readme, serveSectionName)).toBe(serveReadmeFigures(serveResultsFile.load()));
  });

  it('shows the proxy latency figures of the saved results (run `pnpm bench:proxy` to write them)', () => {
    expect(generatedSection(readme, proxySectionName)).toBe(proxyReadmeFigures(proxyResultsFile.load()));
  });

  it('shows the evaluation verdict and levers of the saved results (run `pnpm evaluate` to write them)', () => {
    expect(generatedSection(readme, evaluationSectionName)).toBe(
      evaluationReadmeFigures(evaluationSummaryFile.load()),
    );
  });
});

describe('generated sections', () => {
  it('replace what is between their markers and nothing else', () => {
    const text = 'before\n<!-- figures:start -->\nold\n<!-- figures:end -->\nafter\n';
    const written = withGeneratedSection(text, 'figures', 'new\nlines');
    expect(written).toBe('before\n<!-- figures:start -->\nnew\nlines\n<!-- figures:end -->\nafter\n');
    expect(generatedSection(written, 'figures')).toBe('new\nlines');
  });

  it('fail on a text without the markers', () => {
    expect(() => generatedSection('no markers', 'figures')).toThrow('<!-- figures:start -->');
  });
});
