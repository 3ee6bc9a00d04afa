/**
 * `pnpm bench:readme`: writes the generated figures of bench/README.md and bench/results/strategies.md from
 * the saved results, without measuring anything (the benches write them too, after each run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cliResultsFile } from '../cli/cli-results.js';
import { cliReadmeFigures, cliSectionName } from '../cli/readme-figures.js';
import {
  evaluationReadmeFigures,
  evaluationSectionName,
  evaluationSummaryFile,
} from '../evaluation/readme-figures.js';
import { proxyResultsFile } from '../proxy/proxy-results.js';
import { proxyReadmeFigures, proxySectionName } from '../proxy/readme-figures.js';
import { resultsDirectory } from '../results-file.js';
import { serveReadmeFigures, serveSectionName } from '../serve/readme-figures.js';
import { serveResultsFile } from '../serve/serve-results.js';
import { strategyReadmeFigures, strategySectionName } from '../strategies/readme-figures.js';
import { strategyReport } from '../strategies/report.js';
import { strategyResultsFile } from '../strategies/results.js';
import { tokenReadmeFigures, tokenSectionName } from '../tokens/readme-figures.js';
import { tokenResultsFile } from '../tokens/token-results.js';
import { readmePath, withGeneratedSection } from './generated-section.js';

const strategyResults = strategyResultsFile.load();
writeFileSync(resolve(resultsDirectory, 'strategies.md'), strategyReport(strategyResults));
let readme = readFileSync(readmePath, 'utf8');
readme = withGeneratedSection(readme, strategySectionName, strategyReadmeFigures(strategyResults));
readme = withGeneratedSection(readme, cliSectionName, cliReadmeFigures(cliResultsFile.load()));
readme = withGeneratedSection(readme, serveSectionName, serveReadmeFigures(serveResultsFile.load()));
readme = withGeneratedSection(readme, tokenSectionName, tokenReadmeFigures(tokenResultsFile.load()));
readme = withGeneratedSection(
  readme,
  evaluationSectionName,
  evaluationReadmeFigures(evaluationSummaryFile.load()),
);
readme = withGeneratedSection(readme, proxySectionName, proxyReadmeFigures(proxyResultsFile.load()));
writeFileSync(readmePath, readme);
