/**
 * `pnpm bench:readme`: writes the generated figures of bench/README.md and bench/results/strategies.md from
 * the saved results, without measuring anything (the benches write them too, after each run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadCliResults } from '../cli/cli-results.js';
import { cliReadmeFigures, cliSectionName } from '../cli/readme-figures.js';
import {
  evaluationReadmeFigures,
  evaluationSectionName,
  loadEvaluationSummary,
} from '../evaluation/readme-figures.js';
import { strategyReadmeFigures, strategySectionName } from '../strategies/readme-figures.js';
import { strategyReport } from '../strategies/report.js';
import { loadStrategyResults, resultsDirectory } from '../strategies/results.js';
import { tokenReadmeFigures, tokenSectionName } from '../tokens/readme-figures.js';
import { loadTokenResults } from '../tokens/token-results.js';
import { readmePath, withGeneratedSection } from './generated-section.js';

const strategyResults = loadStrategyResults();
writeFileSync(resolve(resultsDirectory, 'strategies.md'), strategyReport(strategyResults));
let readme = readFileSync(readmePath, 'utf8');
readme = withGeneratedSection(readme, strategySectionName, strategyReadmeFigures(strategyResults));
readme = withGeneratedSection(readme, cliSectionName, cliReadmeFigures(loadCliResults()));
readme = withGeneratedSection(readme, tokenSectionName, tokenReadmeFigures(loadTokenResults()));
readme = withGeneratedSection(
  readme,
  evaluationSectionName,
  evaluationReadmeFigures(loadEvaluationSummary()),
);
writeFileSync(readmePath, readme);
