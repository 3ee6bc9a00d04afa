import { type Message, toolCallsOf } from '@compaction/core';
import {
  codingSources,
  loadTranscripts,
  missingTranscriptsMessage,
  transcriptsDirectory,
} from '@compaction/testing/transcripts';
import { describe, expect, it } from 'vitest';
import type { FileState } from './artifact-trail.js';
import { extractArtifacts } from './extract-artifacts.js';

const directory = transcriptsDirectory();
if (directory === undefined) {
  console.warn(`strategy-summarization: trail state tests skipped (${missingTranscriptsMessage})`);
}

/** What a call of the file tools of Claude Code, SWE-agent or OpenHands did to its file, if it says. */
function editorStep(input: Record<string, unknown>, toolName: string): 'read' | 'edit' | undefined {
  const name = toolName.toLowerCase();
  const command = typeof input.command === 'string' ? input.command : undefined;
  if (name === 'read' || command === 'view') return 'read';
  if (name === 'edit' || name === 'multiedit' || command === 'str_replace' || command === 'insert') {
    return 'edit';
  }
  return undefined;
}

/** Files that a file tool read and later edited, by path: the trail must not call them only read. */
function readThenEdited(messages: readonly Message[]): Set<string> {
  const read = new Set<string>();
  const edited = new Set<string>();
  for (const message of messages) {
    for (const call of toolCallsOf(message)) {
      const input = call.input;
      if (typeof input !== 'object' || input === null || Array.isArray(input)) continue;
      const path = input.file_path ?? input.path;
      const step = editorStep(input, call.toolName);
      if (typeof path !== 'string' || step === undefined) continue;
      if (step === 'read') read.add(path);
      else if (read.has(path)) edited.add(path);
    }
  }
  return edited;
}

/**
 * What the agents of the shared transcripts did, read from the transcripts: SWE-agent opened and edited
 * `fields.py` and removed its `reproduce.py`; mini-swe-agent read `base.py` with `sed -n`, edited
 * `constraints.py` with `sed -i` and removed its scripts with `rm`; OpenHands created `hello.py`; Claude Code
 * read `CLAUDE.md`.
 */
const knownStates: Readonly<Record<string, Readonly<Record<string, FileState>>>> = {
  'swe-agent/marshmallow-code__marshmallow-1867': {
    'src/marshmallow/fields.py': 'edited',
    'reproduce.py': 'deleted',
  },
  'mini-swe-agent/django__django-16560': {
    'django/db/models/base.py': 'read',
    'django/db/models/constraints.py': 'edited',
    'reproduce_issue.py': 'deleted',
  },
  'openhands/fncall-llm-message': { '/workspace/hello.py': 'created' },
  'claude-code/read-tool-samples': { '/Users/pete/git/moredip/session-share/CLAUDE.md': 'read' },
};

describe.skipIf(directory === undefined)('the trail of the real coding transcripts', () => {
  const transcripts = directory === undefined ? [] : loadTranscripts({ sources: codingSources });

  it.each(transcripts.map((transcript) => [transcript.name, transcript] as const))(
    '%s: lists each file with the state it was last left in',
    (name, transcript) => {
      const trail = extractArtifacts(transcript.messages, { commandCharacters: 200 });
      const states = new Map(trail.files.map((file) => [file.path, file.state]));
      const counts: Partial<Record<FileState, number>> = {};
      for (const state of states.values()) counts[state] = (counts[state] ?? 0) + 1;
      console.info(`${name}: ${JSON.stringify(counts)}`);
      // Every path is listed once.
      expect(states.size).toBe(trail.files.length);
      // A file the agent read and then edited is edited (or deleted since), never only read.
      for (const path of readThenEdited(transcript.messages)) {
        expect(['edited', 'created', 'deleted'], `${path} in ${name}`).toContain(states.get(path));
      }
      for (const [path, state] of Object.entries(knownStates[name] ?? {})) {
        expect(states.get(path), `${path} in ${name}`).toBe(state);
      }
    },
  );

  it.skipIf(transcripts.length === 0)('finds files read and files edited across the transcripts', () => {
    const states = transcripts.flatMap((transcript) =>
      extractArtifacts(transcript.messages, { commandCharacters: 200 }).files.map((file) => file.state),
    );
    expect(states).toContain('read');
    expect(states).toContain('edited');
    expect(states).toContain('created');
  });
});
