import { createMessageEstimator } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ArtifactTrail,
  emptyArtifactTrail,
  type FileAction,
  mergeArtifactTrails,
  parseArtifactTrail,
  recordCommand,
  recordError,
  recordFile,
} from './artifact-trail.js';
import { fitArtifactTrail, renderArtifactTrail } from './render-artifact-trail.js';

const countText = createMessageEstimator({
  name: 'approximate:3.5',
  countText: (text) => Math.ceil(text.length / 3.5),
}).countText;

const trailArbitrary: fc.Arbitrary<ArtifactTrail> = fc
  .record({
    files: fc.array(
      fc.record({
        path: fc.stringMatching(/^[a-z]{1,8}\/[a-z]{1,12}\.(ts|py|md)$/),
        action: fc.constantFrom<FileAction>('read', 'created', 'edited', 'deleted', 'named'),
      }),
      { maxLength: 60 },
    ),
    commands: fc.array(
      fc.record({
        command: fc.stringMatching(/^[a-z]{2,6} [a-z0-9 ./-]{0,60}$/),
        status: fc.integer({ min: 0, max: 3 }),
      }),
      { maxLength: 80 },
    ),
    errors: fc.array(fc.stringMatching(/^[A-Z][a-z]{2,10}Error: [a-z ]{0,40}$/), { maxLength: 20 }),
  })
  .map(({ files, commands, errors }) => {
    const trail = emptyArtifactTrail();
    for (const file of files) recordFile(trail, file.path, file.action);
    for (const command of commands) recordCommand(trail, command.command, command.status);
    for (const error of errors) recordError(trail, error);
    return trail;
  });

describe('renderArtifactTrail', () => {
  it('writes one short line per command and lists each path once', () => {
    const trail = emptyArtifactTrail();
    recordFile(trail, 'src/app.py', 'read');
    recordFile(trail, 'notes.md', 'read');
    recordFile(trail, 'src/app.py', 'edited');
    recordFile(trail, 'build', 'named');
    recordFile(trail, 'repro.py', 'created');
    recordFile(trail, 'repro.py', 'created');
    recordCommand(trail, 'cat notes.md', 0);
    recordCommand(trail, 'python repro.py', 1);
    recordCommand(trail, 'python repro.py', 0);
    recordCommand(trail, 'make -C build/', 'error');
    recordCommand(trail, 'ls', 'unknown');
    recordError(trail, 'TypeError: bad operand');
    expect(renderArtifactTrail(trail)).toBe(
      [
        '## Artifact trail',
        'Created: repro.py',
        'Edited: src/app.py',
        'Commands, oldest first (succeeded unless marked):',
        'cat notes.md',
        'python repro.py x2',
        'make -C build/ [failed]',
        'ls [exit ?]',
        'Errors:',
        '- TypeError: bad operand',
      ].join('\n'),
    );
  });

  it('shows every path and command it keeps, and counts what it folded', () => {
    fc.assert(
      fc.property(trailArbitrary, (trail) => {
        const text = renderArtifactTrail(trail);
        for (const command of trail.commands) expect(text).toContain(command.command);
        for (const file of trail.files) expect(text).toContain(file.path);
        for (const error of trail.errors) expect(text).toContain(error);
        // A failed command carries its exit status on its own line.
        for (const command of trail.commands) {
          if (typeof command.status === 'number' && command.status !== 0) {
            expect(text.split('\n')).toContain(
              `${command.command} [exit ${command.status}]${command.runs > 1 ? ` x${command.runs}` : ''}`,
            );
          }
        }
      }),
      { numRuns: 300 },
    );
    const folded = { ...emptyArtifactTrail(), folded: { files: 0, commands: 3, errors: 1 } };
    expect(renderArtifactTrail(folded)).toContain('Oldest detail folded: 3 commands, 1 error.');
  });
});

describe('fitArtifactTrail', () => {
  it('fits any budget that holds the bare headings, folding the oldest detail first', () => {
    fc.assert(
      fc.property(trailArbitrary, fc.integer({ min: 0, max: 1500 }), (trail, extra) => {
        const snapshot = structuredClone(trail);
        const bare = countText(
          renderArtifactTrail({
            ...emptyArtifactTrail(),
            folded: { files: 999, commands: 999, errors: 999 },
          }),
        );
        const budget = bare + extra;
        const fitted = fitArtifactTrail(trail, budget, countText);
        expect(trail).toEqual(snapshot);
        expect(countText(fitted.text)).toBeLessThanOrEqual(budget);
        expect(fitted.text).toBe(renderArtifactTrail(fitted.trail));
        // What is kept is the newest part of each list, and every removed item is counted.
        expect(fitted.trail.files).toEqual(trail.files.slice(trail.files.length - fitted.trail.files.length));
        expect(fitted.trail.commands).toEqual(
          trail.commands.slice(trail.commands.length - fitted.trail.commands.length),
        );
        expect(fitted.trail.errors).toEqual(
          trail.errors.slice(trail.errors.length - fitted.trail.errors.length),
        );
        expect(fitted.trail.folded).toEqual({
          files: trail.files.length - fitted.trail.files.length,
          commands: trail.commands.length - fitted.trail.commands.length,
          errors: trail.errors.length - fitted.trail.errors.length,
        });
        // Errors go before commands, and commands before files.
        if (fitted.trail.folded.commands > 0) expect(fitted.trail.errors).toEqual([]);
        if (fitted.trail.folded.files > 0) expect(fitted.trail.commands).toEqual([]);
        // Nothing is folded when everything fits.
        if (countText(renderArtifactTrail(trail)) <= budget) expect(fitted.trail).toEqual(trail);
      }),
      { numRuns: 300 },
    );
  });

  it('survives the metadata round trip and merges newer runs after older ones', () => {
    fc.assert(
      fc.property(trailArbitrary, trailArbitrary, (older, newer) => {
        const carried = parseArtifactTrail(JSON.parse(JSON.stringify(older)));
        expect(carried).toEqual(older);
        const merged = mergeArtifactTrails(older, newer);
        const paths = new Set([...older.files, ...newer.files].map((file) => file.path));
        expect(new Set(merged.files.map((file) => file.path))).toEqual(paths);
        const newest = newer.commands.at(-1);
        if (newest !== undefined) expect(merged.commands.at(-1)?.command).toBe(newest.command);
        const runs = (trail: ArtifactTrail) => trail.commands.reduce((sum, command) => sum + command.runs, 0);
        expect(runs(merged)).toBe(runs(older) + runs(newer));
      }),
      { numRuns: 200 },
    );
    expect(parseArtifactTrail('not a trail')).toBeUndefined();
    expect(parseArtifactTrail({ files: [], commands: 'x', errors: [] })).toBeUndefined();
  });
});
