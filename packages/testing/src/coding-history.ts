import type { AssistantMessage, Message, ToolCallPart, ToolMessage } from '@compaction/core';

/** Settings of {@link generateCodingHistory}. */
export interface CodingHistorySettings {
  /** Number of messages. Default 2,000. */
  messages?: number;
  /** Average characters of a tool result; the default (about 1,700) makes 2,000 messages about 1M tokens. */
  averageResultCharacters?: number;
  /** Seed of the generator; the same seed gives the same history. Default 1. */
  seed?: number;
}

const files = [
  'src/server/router.ts',
  'src/server/handlers/users.ts',
  'src/db/migrations/0042_add_index.sql',
  'tests/test_router.py',
  'package.json',
  'src/lib/cache.ts',
  'docs/architecture.md',
  'src/cli/main.go',
  'Cargo.toml',
  'src/parser/lexer.rs',
];
const commands = [
  'npm test -- --run',
  'pytest -x tests/test_router.py',
  'git diff --stat',
  'rg -n "TODO" src',
  'cargo build --release',
  'go test ./...',
  'ls -la src/server',
  'python -m mypy src',
  'git log --oneline -n 20',
  'make lint',
];
const codeLines = [
  'export function handle(request: Request): Response {',
  '  const user = await db.users.findUnique({ where: { id: request.params.id } });',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: sample source code, not a template.
  '  if (!user) throw new NotFoundError(`user ${request.params.id} not found`);',
  '  return json({ id: user.id, name: user.name, roles: user.roles.map((role) => role.name) });',
  '}',
  'def test_router_returns_404_for_missing_user(client):',
  '    response = client.get("/users/9999")',
  '    assert response.status_code == 404, response.json()',
  'CREATE INDEX CONCURRENTLY idx_users_email ON users (lower(email));',
  'fn next_token(&mut self) -> Result<Token, LexError> { self.skip_whitespace(); }',
];
const logLines = [
  'PASS  tests/router.test.ts (12 tests) 184ms',
  'FAIL  tests/cache.test.ts > evicts least recently used entry',
  'AssertionError: expected 3 to equal 2 at tests/cache.test.ts:41:17',
  '============================= 57 passed, 1 failed in 3.42s ==============================',
  'warning: unused variable `offset` --> src/parser/lexer.rs:88:13',
  'error[E0308]: mismatched types: expected `usize`, found `i64`',
  '{"level":"info","ts":"2026-11-02T10:14:03Z","msg":"request","path":"/users/42","status":200,"ms":12}',
  'src/server/router.ts:118:  // TODO: handle HEAD requests explicitly',
];

/**
 * Generates a long, realistic coding-agent history (file reads, commands with test logs, edits, follow-up
 * requests), deterministic for a seed. Used by benchmarks and scale tests: 2,000 messages come to about a
 * million tokens.
 */
export function generateCodingHistory(settings: CodingHistorySettings = {}): Message[] {
  const total = settings.messages ?? 2000;
  const averageResultCharacters = settings.averageResultCharacters ?? 1700;
  const random = mulberry32(settings.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const lines = (source: readonly string[], characters: number) => {
    const out: string[] = [];
    let length = 0;
    while (length < characters) {
      const line = pick(source);
      out.push(line);
      length += line.length + 1;
    }
    return out.join('\n');
  };

  const messages: Message[] = [
    {
      role: 'system',
      content: [
        { type: 'text', text: 'You are a coding agent. Use the tools to inspect and change the repository.' },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text: 'The /users endpoint returns 500 for missing users; make it return 404 and add a test.',
        },
      ],
    },
  ];
  let callNumber = 0;
  let step = 0;
  while (messages.length < total) {
    step++;
    if (step % 40 === 0 && messages.length + 1 <= total) {
      messages.push({
        role: 'user',
        content: [{ type: 'text', text: `Also check ${pick(files)} while you are at it.` }],
      });
      continue;
    }
    const callCount = Math.min(
      1 + Math.floor(random() * 3),
      Math.max(1, Math.floor((total - messages.length - 1) / 1)),
    );
    const calls: ToolCallPart[] = [];
    for (let index = 0; index < callCount && messages.length + 1 + calls.length < total + 1; index++) {
      const kind = pick(['read_file', 'bash', 'edit_file'] as const);
      const input =
        kind === 'bash'
          ? { command: pick(commands) }
          : kind === 'read_file'
            ? { path: pick(files) }
            : { path: pick(files), old_string: pick(codeLines), new_string: pick(codeLines) };
      calls.push({
        type: 'tool-call',
        toolCallId: `toolu_${String(++callNumber).padStart(6, '0')}`,
        toolName: kind,
        input,
      });
    }
    const room = total - messages.length;
    if (room < 2) {
      messages.push({
        role: 'assistant',
        content: [{ type: 'text', text: 'The fix is in place and the tests pass.' }],
      });
      continue;
    }
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'text', text: `Step ${step}: ${pick(['Reading', 'Running', 'Editing'])} to narrow it down.` },
        ...calls,
      ],
    };
    const results: ToolMessage = {
      role: 'tool',
      content: calls.map((call) => {
        const size = Math.floor(averageResultCharacters * (0.3 + random() * 1.4));
        const output = call.toolName === 'bash' ? lines(logLines, size) : lines(codeLines, size);
        return { type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output };
      }),
    };
    messages.push(assistant, results);
  }
  return messages;
}

/** A small, fast, seedable pseudo-random generator (mulberry32). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
