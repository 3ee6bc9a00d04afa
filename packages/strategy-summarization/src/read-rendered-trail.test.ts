import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  emptyArtifactTrail,
  type FileAction,
  recordCommand,
  recordError,
  recordFile,
} from './artifact-trail.js';
import { summaryLanguages } from './languages/summary-languages.js';
import { readRenderedSummary } from './read-rendered-trail.js';
import { fitArtifactTrail, renderArtifactTrail } from './render-artifact-trail.js';
import { summaryHeader } from './summary-message.js';

const trailArbitrary = fc
  .record({
    files: fc.array(
      fc.record({
        path: fc.stringMatching(/^[a-z]{1,8}\/[a-z_]{1,12}\.(ts|py|md)$/),
        action: fc.constantFrom<FileAction>('read', 'created', 'edited', 'deleted', 'named'),
      }),
      { maxLength: 60 },
    ),
    commands: fc.array(
      fc.record({
        command: fc.stringMatching(/^[a-z]{2,6} [a-z0-9 ./-]{0,60}$/),
        status: fc.constantFrom(0, 1, 2, 'error' as const, 'unknown' as const),
      }),
      { maxLength: 40 },
    ),
    errors: fc.array(fc.stringMatching(/^[A-Z][a-z]{2,10}Error: [a-z ]{0,40}$/), { maxLength: 10 }),
  })
  .map(({ files, commands, errors }) => {
    const trail = emptyArtifactTrail();
    for (const file of files) recordFile(trail, file.path, file.action);
    for (const command of commands) recordCommand(trail, command.command, command.status);
    for (const error of errors) recordError(trail, error);
    return trail;
  });

const countText = (text: string) => Math.ceil(text.length / 3.5);

describe('readRenderedSummary', () => {
  it('reads back a rendered trail, folded or not, in any language, to one that renders the same', () => {
    fc.assert(
      fc.property(
        trailArbitrary,
        fc.integer({ min: 10, max: 2_000 }),
        fc.option(fc.stringMatching(/^[A-Za-z ,.\n]{1,200}$/), { nil: undefined }),
        fc.constantFrom(...Object.values(summaryLanguages)),
        (trail, tokens, body, language) => {
          const fitted = fitArtifactTrail(trail, tokens, countText, language);
          const text = [summaryHeader('after-task', 3, 40), body?.trim() ?? '', fitted.text]
            .filter((part) => part.length > 0)
            .join('\n\n');
          const read = readRenderedSummary(text);
          expect(renderArtifactTrail(read.trail!, language)).toBe(fitted.text);
          expect(read.trail!.folded).toEqual(fitted.trail.folded);
          expect(read.body).toBe(body?.trim() || undefined);
        },
      ),
    );
  });

  it('reads the files, commands with their status and runs, errors and folded counts', () => {
    const text = [
      summaryHeader('after-task', 2, 12),
      '## Artifact trail',
      'Created: new.py',
      'Read: a.py, b/c.md',
      'Commands, oldest first (succeeded unless marked):',
      'pytest -q [exit 1] x3',
      'make [failed]',
      'Errors:',
      '- TypeError: bad operand',
      'Oldest detail folded: 4 files, 1 command.',
    ].join('\n');
    const { trail, body } = readRenderedSummary(text);
    expect(body).toBeUndefined();
    expect(trail).toEqual({
      files: [
        { path: 'new.py', state: 'created' },
        { path: 'a.py', state: 'read' },
        { path: 'b/c.md', state: 'read' },
      ],
      commands: [
        { command: 'pytest -q', status: 1, runs: 3 },
        { command: 'make', status: 'error', runs: 1 },
      ],
      errors: ['TypeError: bad operand'],
      folded: { files: 4, commands: 1, errors: 0 },
    });
  });

  it('finds no trail in a summary without one', () => {
    expect(readRenderedSummary(`${summaryHeader('before-task', 1, 3)}\n\nThe user asked for a fix.`)).toEqual(
      {
        body: 'The user asked for a fix.',
        trail: undefined,
      },
    );
  });
});
