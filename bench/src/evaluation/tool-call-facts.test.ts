import type { JSONValue, ToolCallPart } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { commandOf, pathsInCommand, pathsOfCall } from './tool-call-facts.js';

const call = (toolName: string, input: JSONValue): ToolCallPart => ({
  type: 'tool-call',
  toolCallId: 'call',
  toolName,
  input,
});

describe('commandOf', () => {
  it('reads the command of shell tools only', () => {
    expect(commandOf(call('bash', { command: 'ls -la' }))).toBe('ls -la');
    expect(commandOf(call('Bash', { command: 'git status', description: 'status' }))).toBe('git status');
    expect(commandOf(call('terminal', { command: 'pwd' }))).toBe('pwd');
    expect(commandOf(call('shell', { command: ['bash', '-lc', 'make test'] }))).toBe('make test');
    // An editor's sub-command is not a shell command.
    expect(commandOf(call('str_replace_editor', { command: 'view', path: 'a.py' }))).toBeUndefined();
    expect(commandOf(call('bash', 'ls'))).toBeUndefined();
  });
});

describe('pathsInCommand', () => {
  it('finds words with a slash or a known file extension', () => {
    expect(pathsInCommand("sed -n '18,50p' django/db/models/constraints.py")).toEqual([
      'django/db/models/constraints.py',
    ]);
    expect(pathsInCommand('cd /testbed && python reproduce.py')).toEqual(['/testbed', 'reproduce.py']);
  });

  it('skips quoted strings, flags, URLs, module names and /dev/null', () => {
    expect(
      pathsInCommand(
        'grep -rn "class Foo/Bar.py" src --include=*.py 2>/dev/null; python -m django.db.models; curl https://x.io/a.json',
      ),
    ).toEqual([]);
  });

  it('skips the body of a here-document but reads the line that opens it', () => {
    const command =
      "cat <<'EOF' > tests/test_new.py\nimport os\nopen('secret/path.txt')\nEOF\npython tests/test_new.py";
    expect(pathsInCommand(command)).toEqual(['tests/test_new.py']);
  });
});

describe('pathsOfCall', () => {
  it('reads path fields, path lists and shell commands, without duplicates', () => {
    expect(pathsOfCall(call('Read', { file_path: '/repo/src/main.ts' }))).toEqual(['/repo/src/main.ts']);
    expect(pathsOfCall(call('find_file', { file_name: 'fields.py', dir: 'src' }))).toEqual(['fields.py']);
    expect(pathsOfCall(call('multi_read', { paths: ['a/b.ts', 'c/d.ts', 7] }))).toEqual(['a/b.ts', 'c/d.ts']);
    expect(pathsOfCall(call('bash', { command: 'cat setup.py && cat setup.py' }))).toEqual(['setup.py']);
    expect(pathsOfCall(call('search', { query: 'what is src/app.py' }))).toEqual([]);
  });
});
