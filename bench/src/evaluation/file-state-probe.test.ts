import type { Message, ToolCallPart } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { assistant, toolTurn, user } from './__fixtures__/messages.js';
import { fileActionsOfCall, shellFileActions } from './file-actions.js';
import { fileStateProbes, measureFileStateRetention } from './file-state-probe.js';

const call = (toolName: string, input: ToolCallPart['input']): ToolCallPart => ({
  type: 'tool-call',
  toolCallId: 'c',
  toolName,
  input,
});

describe('fileActionsOfCall', () => {
  it('reads what shell commands do to files', () => {
    expect(shellFileActions("sed -n '10,20p' src/app.py")).toEqual([{ path: 'src/app.py', action: 'read' }]);
    expect(shellFileActions('nl -ba src/app.py | sed -n "1,5p"')).toEqual([
      { path: 'src/app.py', action: 'read' },
    ]);
    expect(shellFileActions("sed -i 's/a/b/' src/app.py && cat src/app.py")).toEqual([
      { path: 'src/app.py', action: 'edited' },
      { path: 'src/app.py', action: 'read' },
    ]);
    expect(shellFileActions("cat <<'EOF' > notes.txt\nrm everything.py\nEOF")).toEqual([
      { path: 'notes.txt', action: 'edited' },
    ]);
    expect(shellFileActions('rm -f a.py b.py')).toEqual([
      { path: 'a.py', action: 'deleted' },
      { path: 'b.py', action: 'deleted' },
    ]);
    expect(shellFileActions('mv old.py new.py')).toEqual([
      { path: 'old.py', action: 'deleted' },
      { path: 'new.py', action: 'created' },
    ]);
    expect(shellFileActions('python run.py 2>&1 > /dev/null')).toEqual([]);
    expect(shellFileActions('grep -n "a > b" src/app.py')).toEqual([]);
  });

  it('reads file tools by name', () => {
    expect(fileActionsOfCall(call('Read', { file_path: '/r/a.ts' }))).toEqual([
      { path: '/r/a.ts', action: 'read' },
    ]);
    expect(
      fileActionsOfCall(call('Edit', { file_path: '/r/a.ts', old_string: 'x', new_string: 'y' })),
    ).toEqual([{ path: '/r/a.ts', action: 'edited' }]);
    expect(fileActionsOfCall(call('Write', { file_path: '/r/b.ts', content: '' }))).toEqual([
      { path: '/r/b.ts', action: 'created' },
    ]);
    expect(fileActionsOfCall(call('str_replace_editor', { command: 'view', path: '/r/c.py' }))).toEqual([
      { path: '/r/c.py', action: 'read' },
    ]);
    const patch = '*** Begin Patch\n*** Update File: a.ts\n@@\n*** Delete File: b.ts\n*** End Patch';
    expect(fileActionsOfCall(call('apply_patch', { input: patch }))).toEqual([
      { path: 'a.ts', action: 'edited' },
      { path: 'b.ts', action: 'deleted' },
    ]);
  });
});

describe('the file-state probe', () => {
  const messages: Message[] = [
    user('Fix the parser'),
    ...toolTurn('1', 'bash', { command: 'cat src/parser.py' }, 'def parse(tokens, strict=False):\n    pass'),
    ...toolTurn('2', 'bash', { command: "sed -i 's/False/True/' src/util.py" }, ''),
    ...toolTurn('3', 'bash', { command: 'cat src/util.py' }, 'STRICT_DEFAULT = True  # the safe choice'),
    ...toolTurn('4', 'bash', { command: 'rm scratch.py' }, ''),
    ...toolTurn('5', 'bash', { command: "echo 'x' >> src/parser.py" }, ''),
    assistant('Done.'),
  ];

  it('takes the last state of each file: the last read with a line of its own, or the change', () => {
    expect(fileStateProbes(messages)).toEqual([
      { path: 'src/parser.py', state: 'edited' },
      { path: 'src/util.py', state: 'read', line: 'STRICT_DEFAULT = True # the safe choice' },
      { path: 'scratch.py', state: 'deleted' },
    ]);
  });

  it('scores a context that tells every last state as kept, and one that lost them as lost', () => {
    const probes = fileStateProbes(messages);
    expect(measureFileStateRetention(probes, messages)).toEqual({ total: 3, kept: 3, lost: [] });
    const trail: Message = {
      role: 'user',
      content: [
        {
          type: 'text',
          text: '## Artifact trail\nEdited: src/parser.py\nDeleted: scratch.py\nRead: src/util.py',
        },
      ],
      metadata: { compaction: { kind: 'summary' } },
    };
    // A trail tells the changes; only the read's content tells what the agent last saw of a read file.
    expect(measureFileStateRetention(probes, [user('Fix the parser'), trail])).toMatchObject({
      kept: 2,
      lost: [{ path: 'src/util.py', state: 'read' }],
    });
    const bad: Message[] = [user('Fix the parser'), user('[5 earlier messages removed]'), assistant('Done.')];
    expect(measureFileStateRetention(probes, bad)).toMatchObject({ total: 3, kept: 0 });
    // A file named without what happened to it does not tell its state.
    const named = user('Files: src/parser.py, scratch.py');
    expect(measureFileStateRetention(probes, [named]).kept).toBe(0);
  });

  it('has no probe for a read whose every line is in the task', () => {
    const quoted = [user('Fix STRICT_DEFAULT = True # the safe choice'), ...messages.slice(5, 7)];
    expect(fileStateProbes(quoted)).toEqual([]);
  });
});
