import { createInterface } from 'node:readline';
import { createCompactor, createTokenCounter, resolveCompactionConfig } from '@compaction/core';
import { ChatSession } from '../chat/chat-session.js';
import type { CliIO } from '../cli-io.js';
import { createCliRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { parseTokenCount } from '../config/token-amount.js';
import { cliTriggerPolicies } from '../config/trigger-policies.js';
import { CliError, usageError } from '../errors/cli-error.js';
import { fastEstimator } from '../estimators.js';
import { chatHelp } from '../help.js';
import { formatCount } from '../output/format-numbers.js';
import { compactionFlagOptions, helpFlagOptions, parseFlags, printedHelp } from '../parse-flags.js';
import { apiKeyVariables } from '../providers/create-provider.js';
import { reportError } from '../report-error.js';
import { contextWindowOf, providerOf } from '../run-compaction.js';

/** The chat's default when no strategy is named: summarize, falling back to the sliding window. */
const chatStrategy = ['tool-result-truncation', 'summarization'];

/** `compaction chat`: a terminal chat with a real provider that compacts automatically. */
export async function chatCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags('chat', args, {
    ...helpFlagOptions,
    ...compactionFlagOptions,
    system: { type: 'string' },
    'max-output': { type: 'string' },
  });
  if (printedHelp(values, chatHelp, io)) return 0;
  const registry = await createCliRegistry({ directory: io.cwd, config: values.config });
  const settings = resolveSettings(registry, values, io.cwd);
  if (settings.provider === undefined) {
    throw new CliError({
      reason: 'config',
      message:
        `chat needs a provider: pass --provider anthropic (with ${apiKeyVariables.anthropic} set) or ` +
        `--provider openai (with ${apiKeyVariables.openai} set), or add "provider" to compaction.config.json`,
    });
  }
  const maxOutputTokens =
    values['max-output'] === undefined ? 1024 : parseTokenCount(values['max-output'], '--max-output');
  if (settings.strategyDefaulted && registry.names().includes('summarization')) {
    settings.config = { ...settings.config, strategy: chatStrategy, fallback: 'sliding-window' };
    settings.strategyNames = chatStrategy;
  }
  const provider = await providerOf(settings, io.env);
  if (provider === undefined) throw usageError('chat needs a provider');
  const resolved = await resolveCompactionConfig(settings.config, registry, {
    provider,
    triggerPolicies: cliTriggerPolicies,
  });
  const compactor = createCompactor({
    ...resolved,
    budget: { ...settings.budget, contextWindow: contextWindowOf(settings, provider) },
    counter: createTokenCounter(fastEstimator()),
    provider,
  });
  const chat = new ChatSession({
    provider,
    compactor,
    maxOutputTokens,
    ...(values.system === undefined ? {} : { system: values.system }),
  });
  const write = (text: string) => io.stdout.write(text);
  const budget = chat.tokens();
  write(
    `Chatting with ${provider.name} ${settings.provider.model ?? provider.modelId}; context window ${formatCount(budget.contextWindow)} tokens, ` +
      `compacting with ${settings.strategyNames.join(' → ')} at ${budget.trigger === null ? 'no trigger' : formatCount(budget.trigger)} tokens.\n` +
      'Commands: /compact [instructions], /tokens, /history, /quit\n',
  );
  const terminal = io.stdin.isTTY === true && io.stdout.isTTY === true;
  const lines = createInterface({ input: io.stdin, output: io.stdout, terminal, prompt: 'you> ' });
  lines.prompt();
  for await (const line of lines) {
    const text = line.trim();
    if (text === '') {
      lines.prompt();
      continue;
    }
    try {
      if (text === '/quit' || text === '/exit') break;
      if (text === '/tokens') {
        const state = chat.tokens();
        write(
          `${formatCount(state.tokens)} tokens in ${state.messages} messages: ${((state.tokens / state.limit) * 100).toFixed(1)}% of the limit ` +
            `${formatCount(state.limit)} (trigger ${state.trigger === null ? 'off' : formatCount(state.trigger)}, ` +
            `target ${formatCount(state.target)}); ${chat.compactions} ${chat.compactions === 1 ? 'compaction' : 'compactions'}\n`,
        );
      } else if (text === '/history') {
        const history = chat.historyLines();
        write(history.length === 0 ? '(no messages yet)\n' : `${history.join('\n')}\n`);
      } else if (text === '/compact' || text.startsWith('/compact ')) {
        const before = chat.tokens().tokens;
        const result = await chat.compact(text.slice('/compact'.length).trim());
        write(
          result.compacted
            ? `compacted with ${result.event?.strategy}: ${formatCount(before)} → ${formatCount(result.event?.tokensAfter ?? 0)} tokens\n`
            : `nothing compacted (${result.skipped === 'under-target' ? `already under the target of ${formatCount(chat.tokens().target)} tokens` : result.skipped})\n`,
        );
      } else if (text.startsWith('/')) {
        write(
          `unknown command ${text.split(' ')[0]}; commands: /compact [instructions], /tokens, /history, /quit\n`,
        );
      } else {
        const turn = await chat.send(text);
        if (turn.compaction?.event !== undefined) {
          const event = turn.compaction.event;
          write(
            `[compacted (${event.trigger}) with ${event.strategy}: ${formatCount(event.tokensBefore)} → ${formatCount(event.tokensAfter)} tokens]\n`,
          );
        }
        write(`assistant> ${turn.answer}\n`);
      }
    } catch (error) {
      // A failed turn is reported and the chat goes on; the history is unchanged.
      reportError(error, io);
    }
    lines.prompt();
  }
  lines.close();
  write('bye\n');
  return 0;
}
