import type { JSONValue, Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { pathsOfCommand } from './command-paths.js';
import { extractArtifacts } from './extract-artifacts.js';

let callNumber = 0;
/** One assistant call and its result. */
function exchange(toolName: string, input: JSONValue, output: string, isError?: boolean): Message[] {
  const toolCallId = `call_${++callNumber}`;
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName, input }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId, toolName, output, ...(isError ? { isError } : {}) }],
    },
  ];
}

const settings = { commandCharacters: 200 };
const filesOf = (messages: Message[]) =>
  Object.fromEntries(extractArtifacts(messages, settings).files.map((file) => [file.path, file.state]));

describe('extractArtifacts', () => {
  it('reads Claude Code tools (Read, Edit, Write, Bash)', () => {
    const trail = extractArtifacts(
      [
        ...exchange('Read', { file_path: '/repo/src/app.ts', limit: 20 }, 'export const x = 1;'),
        ...exchange('Edit', { file_path: '/repo/src/app.ts', old_string: 'x', new_string: 'y' }, 'ok'),
        ...exchange('Write', { file_path: '/repo/src/new.ts', content: 'export {}' }, 'File created'),
        ...exchange(
          'Bash',
          { command: 'npm test', description: 'Run tests' },
          'FAIL src/app.test.ts\nExit code: 1',
          true,
        ),
      ],
      settings,
    );
    expect(trail.files).toEqual([
      { path: '/repo/src/app.ts', state: 'edited' },
      { path: '/repo/src/new.ts', state: 'created' },
    ]);
    expect(trail.commands).toEqual([{ command: 'npm test', status: 1, runs: 1 }]);
    expect(trail.errors).toEqual(['FAIL src/app.test.ts']);
  });

  it('reads OpenHands and SWE-agent editors, where `command` is a sub-command, not a shell command', () => {
    const messages = [
      ...exchange('str_replace_editor', { command: 'view', path: '/testbed/setup.py' }, '1 setup()'),
      ...exchange(
        'str_replace_editor',
        { command: 'create', path: '/testbed/repro.py', file_text: 'x' },
        'ok',
      ),
      ...exchange(
        'str_replace_editor',
        { command: 'str_replace', path: '/testbed/setup.py', old_str: 'a' },
        'ok',
      ),
      ...exchange(
        'terminal',
        { command: 'python repro.py', security_risk: 'LOW' },
        'done\n[Command finished with exit code 0]',
      ),
      ...exchange('open', { path: 'src/marshmallow/fields.py' }, '[File: fields.py]'),
      ...exchange('edit', { search: 'a', replace: 'b' }, 'edited'),
      ...exchange('create', { filename: 'reproduce.py' }, '[File: reproduce.py (1 lines total)]'),
      ...exchange('find_file', { file_name: 'fields.py', dir: 'src' }, 'Found 1 match'),
    ];
    expect(filesOf(messages)).toEqual({
      '/testbed/setup.py': 'edited',
      '/testbed/repro.py': 'created',
      'repro.py': 'named',
      'src/marshmallow/fields.py': 'edited',
      'reproduce.py': 'created',
      'fields.py': 'read',
      src: 'read',
    });
    expect(extractArtifacts(messages, settings).commands).toEqual([
      { command: 'python repro.py', status: 0, runs: 1 },
    ]);
  });

  it('reads mini-swe-agent results, command arrays, cmd fields and string inputs', () => {
    const trail = extractArtifacts(
      [
        ...exchange(
          'bash',
          { command: "sed -n '1,20p' django/db/models/query.py" },
          '<returncode>0</returncode>\n<output>\n</output>',
        ),
        ...exchange(
          'shell',
          { command: ['bash', '-lc', 'pytest -x tests/test_dates.py'] },
          'exited with status 2',
        ),
        ...exchange('run', { cmd: 'make build' }, 'ok'),
        ...exchange('bash', 'ls -la', 'total 0'),
        ...exchange(
          'bash',
          { command: 'python -c "import x"' },
          'Traceback (most recent call last):\n  File "<string>"\nModuleNotFoundError: No module named \'x\'',
          true,
        ),
      ],
      settings,
    );
    expect(trail.commands).toEqual([
      { command: "sed -n '1,20p' django/db/models/query.py", status: 0, runs: 1 },
      { command: 'pytest -x tests/test_dates.py', status: 2, runs: 1 },
      { command: 'make build', status: 'ok', runs: 1 },
      { command: 'ls -la', status: 'ok', runs: 1 },
      { command: 'python -c "import x"', status: 'error', runs: 1 },
    ]);
    expect(trail.errors).toContain("ModuleNotFoundError: No module named 'x'");
    expect(trail.files.map((file) => file.path)).toEqual([
      'django/db/models/query.py',
      'tests/test_dates.py',
    ]);
  });

  it('keeps the first line of multi-line commands, cut to the configured length, and counts repeated runs', () => {
    const long = `python -c "${'a'.repeat(300)}"`;
    const trail = extractArtifacts(
      [
        ...exchange('bash', { command: "cat <<'EOF' > fix.py\nprint('hi')\nEOF" }, 'Exit code: 0'),
        ...exchange('bash', { command: long }, 'Exit code: 0'),
        ...exchange('bash', { command: "cat <<'EOF' > fix.py\nprint('bye')\nEOF" }, 'Exit code: 0'),
      ],
      { commandCharacters: 40 },
    );
    expect(trail.commands).toEqual([
      { command: `${long.slice(0, 40)}…`, status: 0, runs: 1 },
      { command: "cat <<'EOF' > fix.py", status: 0, runs: 2 },
    ]);
    // Written whole twice, and new: created.
    expect(trail.files).toEqual([{ path: 'fix.py', state: 'created' }]);
  });

  it('reads commands written as fenced bash blocks when there is no tool call', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'THOUGHT: run it\n\n```bash\npython manage.py test app\n```' }],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: '<returncode>1</returncode>\n<output>\nAssertionError: 1 != 2\n</output>' },
        ],
      },
    ];
    const trail = extractArtifacts(messages, settings);
    expect(trail.commands).toEqual([{ command: 'python manage.py test app', status: 1, runs: 1 }]);
    expect(trail.errors).toEqual(['AssertionError: 1 != 2']);
    expect(trail.files.map((file) => file.path)).toEqual(['manage.py']);
  });
});

describe('pathsOfCommand', () => {
  it('finds paths with their actions and skips quoted scripts, flags, URLs and here-documents', () => {
    expect(
      pathsOfCommand(
        "cd /testbed && sed -i 's/a\\/b/c/g' src/app.py && cat README.md | grep -n foo > out.txt 2>&1; curl https://x.io/a.json",
      ),
    ).toEqual([
      { path: '/testbed', action: 'named' },
      { path: 'src/app.py', action: 'edited' },
      { path: 'README.md', action: 'read' },
      { path: 'out.txt', action: 'created' },
    ]);
    expect(
      pathsOfCommand(
        "cat <<'EOF' > tests/test_new.py\nimport os.path\nfrom a/b import c\nEOF\npytest tests/test_new.py",
      ),
    ).toEqual([
      { path: 'tests/test_new.py', action: 'created' },
      { path: 'tests/test_new.py', action: 'named' },
    ]);
    expect(pathsOfCommand('python -c "open(\'secret/file.txt\')" --config=conf.yaml')).toEqual([]);
    expect(pathsOfCommand('touch src/new.ts && mkdir -p src/lib/util')).toEqual([
      { path: 'src/new.ts', action: 'created' },
      { path: 'src/lib/util', action: 'created' },
    ]);
  });
});

describe('the state each file was last left in', () => {
  it('follows Claude Code: read then edited is edited, a new file edited stays created, then deleted', () => {
    const messages = [
      ...exchange('Read', { file_path: 'src/app.ts' }, 'export const x = 1;'),
      ...exchange('Edit', { file_path: 'src/app.ts', old_string: 'x', new_string: 'y' }, 'ok'),
      ...exchange('Read', { file_path: 'src/app.ts' }, 'export const y = 1;'),
      ...exchange('Write', { file_path: 'src/new.ts', content: 'export {}' }, 'File created'),
      ...exchange('MultiEdit', { file_path: 'src/new.ts', edits: [] }, 'ok'),
      ...exchange('Write', { file_path: 'src/config.ts', content: 'x' }, 'ok'),
      ...exchange('Read', { file_path: 'README.md' }, '# app'),
      ...exchange('Write', { file_path: 'src/old.ts', content: 'x' }, 'ok'),
      ...exchange('Bash', { command: 'rm src/old.ts' }, ''),
    ];
    expect(filesOf(messages)).toEqual({
      'src/app.ts': 'edited',
      'src/new.ts': 'created',
      'src/config.ts': 'created',
      'README.md': 'read',
      'src/old.ts': 'deleted',
    });
  });

  it("follows str_replace_editor's view, create, str_replace and insert", () => {
    const messages = [
      ...exchange('str_replace_editor', { command: 'view', path: '/testbed/a.py' }, '1 a = 1'),
      ...exchange(
        'str_replace_editor',
        { command: 'str_replace', path: '/testbed/a.py', old_str: 'a' },
        'ok',
      ),
      ...exchange('str_replace_editor', { command: 'create', path: '/testbed/b.py', file_text: 'b' }, 'ok'),
      ...exchange('str_replace_editor', { command: 'insert', path: '/testbed/b.py', new_str: 'c' }, 'ok'),
      ...exchange('str_replace_editor', { command: 'view', path: '/testbed/c.py' }, '1 c = 1'),
    ];
    expect(filesOf(messages)).toEqual({
      '/testbed/a.py': 'edited',
      '/testbed/b.py': 'created',
      '/testbed/c.py': 'read',
    });
  });

  it("follows apply_patch's Add, Update, Delete and Move, as a tool and in a shell command", () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/added.ts',
      '+export {};',
      '*** Update File: src/updated.ts',
      '@@',
      '-a',
      '+b',
      '*** Delete File: src/removed.ts',
      '*** Update File: src/before.ts',
      '*** Move to: src/after.ts',
      '*** End Patch',
    ].join('\n');
    expect(filesOf(exchange('apply_patch', patch, 'Success. Updated the following files'))).toEqual({
      'src/added.ts': 'created',
      'src/updated.ts': 'edited',
      'src/removed.ts': 'deleted',
      'src/before.ts': 'deleted',
      'src/after.ts': 'created',
    });
    const inShell = exchange(
      'shell',
      { command: ['apply_patch', patch] },
      '{"output":"Success","metadata":{"exit_code":0}}',
    );
    expect(filesOf(inShell)).toMatchObject({ 'src/updated.ts': 'edited', 'src/removed.ts': 'deleted' });
    const heredoc = exchange('bash', { command: `apply_patch <<'EOF'\n${patch}\nEOF` }, 'Exit code: 0');
    expect(filesOf(heredoc)).toMatchObject({ 'src/added.ts': 'created', 'src/after.ts': 'created' });
  });

  it('follows shell commands: cat and sed -n read, > creates, >> and sed -i edit, rm deletes, mv and cp', () => {
    const messages = [
      ...exchange('bash', { command: 'cat src/a.py && sed -n 1,20p src/b.py' }, 'Exit code: 0'),
      ...exchange('bash', { command: "sed -i 's/x/y/' src/a.py && echo x >> src/b.py" }, 'Exit code: 0'),
      ...exchange('bash', { command: 'echo hi > notes.txt && touch empty.txt' }, 'Exit code: 0'),
      ...exchange(
        'bash',
        { command: 'mv src/old.py src/new.py && cp setup.cfg setup.bak.cfg' },
        'Exit code: 0',
      ),
      ...exchange('bash', { command: 'rm -f notes.txt' }, 'Exit code: 0'),
    ];
    expect(filesOf(messages)).toEqual({
      'src/a.py': 'edited',
      'src/b.py': 'edited',
      'empty.txt': 'created',
      'src/old.py': 'deleted',
      'src/new.py': 'created',
      'setup.cfg': 'read',
      'setup.bak.cfg': 'created',
      'notes.txt': 'deleted',
    });
  });
});
