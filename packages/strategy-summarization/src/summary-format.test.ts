import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summaryLanguageCodes, summaryLanguages } from './languages/summary-languages.js';
import { checkSummary } from './summary-failure.js';
import { summaryFormat } from './summary-format.js';

const codes = summaryLanguageCodes;
const defaults = { language: 'auto', template: undefined, requiredSections: undefined };
const answer = (text: string) => ({ text, finishReason: 'stop' as const });

describe('the sections a summary must have', () => {
  it('accepts every section under its name in any shipped language, and rejects any summary missing one', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...codes),
        fc.array(fc.constantFrom(...codes), { minLength: 7, maxLength: 7 }),
        // At least one section is written: a summary with none is empty, another failure.
        fc.subarray([0, 1, 2, 3, 4, 5, 6], { maxLength: 6 }),
        fc.constantFrom('## ', '### ', '**', '1. ', ''),
        (askedCode, writtenCodes, missing, mark) => {
          const asked = summaryLanguages[askedCode];
          const written = writtenCodes.map((code) => summaryLanguages[code]);
          const { requiredSections } = summaryFormat({ ...defaults, language: asked.code }, []);
          const text = written
            .map((language, index) => ({ heading: language.sections[index]!.heading, index }))
            .filter((section) => !missing.includes(section.index))
            .map(({ heading }) => `${mark}${heading}${mark === '**' ? '**' : ''}\nnone`)
            .join('\n');
          const failure = checkSummary(answer(text), requiredSections);
          if (missing.length === 0) expect(failure).toBeUndefined();
          else {
            expect(failure?.reason).toBe('malformed');
            // Named as asked.
            for (const index of missing) expect(failure?.message).toContain(asked.sections[index]!.heading);
          }
        },
      ),
    );
  });

  it('reads Chinese enumerated headings (`一、目标与约束`)', () => {
    const { requiredSections } = summaryFormat({ ...defaults, language: 'zh' }, []);
    const numerals = ['一', '二', '三', '四', '五', '六', '七'];
    const text = summaryLanguages.zh.sections
      .map((section, index) => `${numerals[index]}、${section.heading}\n无`)
      .join('\n');
    expect(checkSummary(answer(text), requiredSections)).toBeUndefined();
  });

  it('requires exactly the sections the user names, and none with a custom template', () => {
    const named = summaryFormat({ ...defaults, requiredSections: ['Customer', 'Next'] }, []);
    expect(named.requiredSections).toEqual([['Customer'], ['Next']]);
    expect(checkSummary(answer('## Customer\nAda'), named.requiredSections)?.message).toContain('Next');
    const custom = summaryFormat({ ...defaults, template: '{{conversation}}' }, []);
    expect(custom.requiredSections).toEqual([]);
    expect(custom.template).toBe('{{conversation}}');
  });
});
