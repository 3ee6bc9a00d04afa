import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedSection, readmePath } from '../readme/generated-section.js';
import { telemetryReadmeFigures, telemetrySectionName } from './readme-figures.js';
import { telemetryResultsFile } from './telemetry-results.js';

describe('bench/README.md', () => {
  it('shows the telemetry overhead figures of the saved results (run `pnpm bench:telemetry` to write them)', () => {
    const readme = readFileSync(readmePath, 'utf8');
    expect(generatedSection(readme, telemetrySectionName)).toBe(
      telemetryReadmeFigures(telemetryResultsFile.load()),
    );
  });
});
