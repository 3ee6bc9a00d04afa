/**
 * The agents the run installs, at pinned versions: each runs here on Node 20 from the npm registry alone (the
 * native builds of Claude Code, Codex and opencode are optional dependencies published on npm).
 */
export const agentVersions = {
  '@openai/codex': '0.171.0',
  '@anthropic-ai/claude-code': '2.1.332',
  '@mariozechner/pi-coding-agent': '0.73.1',
  'opencode-ai': '1.18.33',
};
