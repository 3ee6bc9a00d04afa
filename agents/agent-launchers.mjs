import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The model name each agent asks for: any name works with the scripted provider. */
const models = {
  codex: 'gpt-5.1-codex',
  'claude-code': 'claude-sonnet-4-6',
  opencode: 'scripted-model',
  pi: 'scripted-model',
};

/**
 * `window` is the context window the agent is told its model has (undefined: the agent's own default for the
 * model); the provider's real limit and the proxy's window are set apart from it.
 *
 * How to run each agent headless against `baseUrl` (the origin of the proxy or the provider), in `folder`
 * (the task's files), with its own home in `home` so no setting of the machine is read: the command, its
 * environment, and the files it reads its settings from. Every agent's telemetry and update checks are off.
 * `mcp`, when given (`{ name, command, args }`), is an MCP server over stdio the agent loads (Codex and Claude
 * Code), its tools allowed without asking.
 */
export const agentLaunchers = {
  codex: {
    title: 'Codex CLI',
    packageName: '@openai/codex',
    binary: 'codex',
    format: 'openai-responses',
    launch({ baseUrl, folder, home, task, window, mcp }) {
      const codexHome = join(home, 'codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(
        join(codexHome, 'config.toml'),
        [
          `model = "${models.codex}"`,
          'model_provider = "scripted"',
          ...(window === undefined ? [] : [`model_context_window = ${window}`]),
          'approval_policy = "never"',
          'sandbox_mode = "danger-full-access"',
          'check_for_update_on_startup = false',
          '[analytics]',
          'enabled = false',
          '[history]',
          'persistence = "none"',
          '[model_providers.scripted]',
          'name = "scripted"',
          `base_url = "${baseUrl}/v1"`,
          'wire_api = "responses"',
          'env_key = "AGENTS_API_KEY"',
          'request_max_retries = 0',
          'stream_max_retries = 0',
          ...(mcp === undefined
            ? []
            : [
                `[mcp_servers.${mcp.name}]`,
                `command = ${JSON.stringify(mcp.command)}`,
                `args = ${JSON.stringify(mcp.args)}`,
              ]),
          '',
        ].join('\n'),
      );
      return {
        args: ['exec', '--skip-git-repo-check', '--color', 'never', '-C', folder, task],
        environment: { CODEX_HOME: codexHome, AGENTS_API_KEY: 'scripted-key' },
      };
    },
  },
  'claude-code': {
    title: 'Claude Code',
    packageName: '@anthropic-ai/claude-code',
    binary: 'claude',
    format: 'anthropic',
    launch({ baseUrl, folder, home, task, mcp }) {
      const configFolder = join(home, 'claude');
      mkdirSync(configFolder, { recursive: true });
      writeFileSync(
        join(configFolder, 'settings.json'),
        JSON.stringify({ permissions: { allow: ['Read'] }, env: {}, includeCoAuthoredBy: false }, null, 2),
      );
      return {
        args: [
          '-p',
          task,
          '--model',
          models['claude-code'],
          '--allowedTools',
          'Read',
          ...(mcp === undefined ? [] : [`mcp__${mcp.name}__search`, `mcp__${mcp.name}__recall`]),
          ...(mcp === undefined
            ? []
            : [
                '--strict-mcp-config',
                '--mcp-config',
                JSON.stringify({ mcpServers: { [mcp.name]: { command: mcp.command, args: mcp.args } } }),
              ]),
          '--output-format',
          'text',
          '--add-dir',
          folder,
        ],
        environment: {
          ANTHROPIC_BASE_URL: baseUrl,
          ANTHROPIC_API_KEY: 'scripted-key',
          CLAUDE_CONFIG_DIR: configFolder,
          DISABLE_TELEMETRY: '1',
          DISABLE_ERROR_REPORTING: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_BUG_COMMAND: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_NON_ESSENTIAL_MODEL_CALLS: '1',
          // The MCP tools offered with their schemas, as the scripted model calls them, not behind ToolSearch.
          ...(mcp === undefined ? {} : { ENABLE_TOOL_SEARCH: 'false' }),
        },
      };
    },
  },
  pi: {
    title: 'pi',
    packageName: '@mariozechner/pi-coding-agent',
    binary: 'pi',
    format: 'openai-chat',
    launch({ baseUrl, home, task, window }) {
      const agentFolder = join(home, 'pi');
      mkdirSync(agentFolder, { recursive: true });
      writeFileSync(
        join(agentFolder, 'models.json'),
        JSON.stringify(
          {
            providers: {
              scripted: {
                baseUrl: `${baseUrl}/v1`,
                api: 'openai-completions',
                apiKey: 'scripted-key',
                models: [
                  {
                    id: models.pi,
                    name: 'Scripted model',
                    reasoning: false,
                    input: ['text'],
                    contextWindow: window,
                    maxTokens: 4096,
                    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
                  },
                ],
              },
            },
          },
          null,
          2,
        ),
      );
      return {
        args: ['-p', '--provider', 'scripted', '--model', models.pi, '--no-session', task],
        environment: { PI_CODING_AGENT_DIR: agentFolder, PI_SKIP_VERSION_CHECK: '1', PI_OFFLINE: '1' },
      };
    },
  },
  opencode: {
    title: 'opencode',
    packageName: 'opencode-ai',
    binary: 'opencode',
    format: 'openai-chat',
    launch({ baseUrl, folder, home, task, window }) {
      writeFileSync(
        join(folder, 'opencode.json'),
        JSON.stringify(
          {
            $schema: 'https://opencode.ai/config.json',
            autoupdate: false,
            share: 'disabled',
            model: `scripted/${models.opencode}`,
            provider: {
              scripted: {
                npm: '@ai-sdk/openai-compatible',
                name: 'Scripted',
                options: { baseURL: `${baseUrl}/v1`, apiKey: 'scripted-key' },
                models: {
                  [models.opencode]: { name: 'Scripted model', limit: { context: window, output: 4096 } },
                },
              },
            },
          },
          null,
          2,
        ),
      );
      return {
        args: ['run', task],
        environment: {
          XDG_CONFIG_HOME: join(home, 'config'),
          XDG_DATA_HOME: join(home, 'data'),
          XDG_CACHE_HOME: join(home, 'cache'),
          XDG_STATE_HOME: join(home, 'state'),
          OPENCODE_DISABLE_AUTOUPDATE: '1',
          OPENCODE_DISABLE_MODELS_FETCH: '1',
          OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        },
      };
    },
  },
};
