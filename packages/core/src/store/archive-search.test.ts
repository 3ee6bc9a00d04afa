import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { planArchiveSearch } from './archive-search-plan.js';
import { archiveSearchScore, archiveSearchSnippet } from './archive-search-text.js';
import { InvalidSearchQueryError } from './invalid-search-query-error.js';

describe('planArchiveSearch', () => {
  it('splits words at white space and keeps quoted phrases whole, each term once', () => {
    expect(planArchiveSearch({ text: ' disk  "quota  exceeded" Disk "open quote' })).toEqual({
      terms: ['disk', 'quota  exceeded', 'open quote'],
      limit: 10,
    });
    expect(planArchiveSearch({ text: 'x', sessionId: 's', limit: 500 })).toEqual({
      terms: ['x'],
      sessionId: 's',
      limit: 100,
    });
  });

  it('refuses a query with nothing to search for, too long, or with a limit that is not a positive integer', () => {
    const queries = [
      { text: '' },
      { text: ' "" \t' },
      { text: 'x'.repeat(1001) },
      { text: Array.from({ length: 33 }, (_, index) => `w${index}`).join(' ') },
      { text: 'x', limit: 0 },
      { text: 'x', limit: 2.5 },
      { text: 42 as unknown as string },
      { text: 'x', sessionId: 7 as unknown as string },
    ];
    for (const query of queries) {
      const error = (() => {
        try {
          planArchiveSearch(query);
        } catch (error) {
          return error;
        }
      })();
      expect(InvalidSearchQueryError.isInstance(error), JSON.stringify(query)).toBe(true);
      expect(InvalidOptionsError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /^Invalid options for the archive search query: (text|limit|sessionId): /,
      );
    }
  });

  it('never throws anything but its typed error, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        try {
          const { terms } = planArchiveSearch({ text });
          expect(terms.length).toBeGreaterThan(0);
          for (const term of terms) expect(term).toBe(term.trim());
        } catch (error) {
          expect(InvalidSearchQueryError.isInstance(error)).toBe(true);
        }
      }),
    );
  });
});

describe('archiveSearchScore', () => {
  it('is undefined unless every term occurs, and grows with the matches', () => {
    expect(archiveSearchScore('Alpha beta', ['alpha', 'gamma'])).toBeUndefined();
    const once = archiveSearchScore('alpha and more words around it', ['ALPHA'])!;
    const twice = archiveSearchScore('alpha and alpha words around it', ['alpha'])!;
    expect(twice).toBeGreaterThan(once);
    expect(archiveSearchScore('Ошибка', ['ошибка'])).toBeGreaterThan(0);
  });
});

describe('archiveSearchSnippet', () => {
  it('shows about 200 characters around the first match, each match marked', () => {
    const text = `${'a '.repeat(300)}the needle and the NEEDLE${' b'.repeat(300)}`;
    const snippet = archiveSearchSnippet(text, ['needle']);
    expect(snippet).toMatch(/^….*the \*\*needle\*\* and the \*\*NEEDLE\*\*.*…$/);
    expect(snippet.length).toBeLessThanOrEqual(210);
  });

  it('is a part of the text with white space collapsed, once the marks are taken out', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '\n', '数', '😀'), maxLength: 600 });
    fc.assert(
      fc.property(text, fc.constantFrom('a', 'bc', '数', '😀', 'ab c'), (text, term) => {
        const snippet = archiveSearchSnippet(text, [term]);
        const plain = snippet.replaceAll('**', '').replace(/^…/u, '').replace(/…$/u, '');
        expect(text.replace(/\s+/gu, ' ')).toContain(plain);
        expect(plain.length).toBeLessThanOrEqual(202);
        // Never half of a character outside the Basic Multilingual Plane.
        expect(plain).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/u);
        if (archiveSearchScore(text, [term]) !== undefined && !/\s/u.test(term)) {
          // Matches side by side are marked as one.
          const marked = snippet.match(/\*\*[^*]+\*\*/gu) ?? [];
          expect(marked.some((run) => run.includes(term))).toBe(true);
        }
      }),
    );
  });
});
