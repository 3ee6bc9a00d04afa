import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedSection, readmePath } from '../readme/generated-section.js';
import { backgroundResultsFile } from './background-results.js';
import { backgroundReadmeFigures, backgroundSectionName } from './readme-figures.js';

describe('bench/README.md', () => {
  it('shows the background compaction figures of the saved results (run `pnpm bench:background` to write them)', () => {
    const readme = readFileSync(readmePath, 'utf8');
    expect(generatedSection(readme, backgroundSectionName)).toBe(
      backgroundReadmeFigures(backgroundResultsFile.load()),
    );
  });
});
