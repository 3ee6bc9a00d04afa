import { createInterface } from 'node:readline';
import { createCompactor, createTokenCounter, resolveCompactionConfig } from '@compaction/core';
import {
  apiKeyVariables,
  CliError,
  cliTriggerPolicies,
  contextWindowOf,
  createInstalledStrategyRegistry,
  formatCount,
  parseTokenCount,
  providerOf,
  resolveSettings,
  usageError,
} from '@compaction/server';
import { ChatSession } from '../chat/chat-session.js';
import type { CliIO } from '../cli-io.js';
import { chatHelp } from '../help.js';
import { compactionFlagOptions, helpFlagOptions, parseFlags, printedHelp } from '../parse-flags.js';
import { reportError } from '../report-error.js';

/** The chat's default when no strategy is named: summarize, falling back to the sliding window. */
const chatStrategy = ['tool-result-truncation', 'summarization'];

/** The flags of `compaction chat`. */
const chatFlagOptions = {
  ...helpFlagOptions,
  ...compactionFlagOptions,
  system: { type: 'string' },
  'max-output': { type: 'string' },
} as const;

type ChatFlags = ReturnType<typeof parseFlags<typeof chatFlagOptions>>['values'];

/** The chat's own commands, as its first lines and an unknown command list them. */
const chatCommands = '/compact [instructions], /tokens, /history, /quit';

/** `compaction chat`: a terminal chat with a real provider that compacts automatically. */
export async function chatCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags('chat', args, chatFlagOptions);
  if (printedHelp(values, chatHelp, io)) return 0;
  const chat = await startChat(values, io);
  const terminal = io.stdin.isTTY === true && io.stdout.isTTY === true;
  const lines = createInterface({ input: io.stdin, output: io.stdout, terminal, prompt: 'you> ' });
  lines.prompt();
  for await (const line of lines) {
    const text = line.trim();
    if (text === '/quit' || text === '/exit') break;
    try {
      if (text !== '') await answerLine(chat, text, io);
    } catch (error) {
      // A failed turn is reported and the chat goes on; the history is unchanged.
      reportError(error, io);
    }
    lines.prompt();
  }
  lines.close();
  io.stdout.write('bye\n');
  return 0;
}

/**
 * The chat the flags and the config describe, once its first lines have said what it talks to and how it
 * compacts.
 */
async function startChat(values: ChatFlags, io: CliIO): Promise<ChatSession> {
  const registry = await createInstalledStrategyRegistry({ directory: io.cwd, config: values.config });
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
    counter: createTokenCounter(),
    provider,
  });
  const chat = new ChatSession({
    provider,
    compactor,
    maxOutputTokens,
    ...(values.system === undefined ? {} : { system: values.system }),
  });
  const budget = chat.tokens();
  io.stdout.write(
    `Chatting with ${provider.name} ${settings.provider.model ?? provider.modelId}; context window ${formatCount(budget.contextWindow)} tokens, ` +
      `compacting with ${settings.strategyNames.join(' → ')} at ${budget.trigger === null ? 'no trigger' : formatCount(budget.trigger)} tokens.\n` +
      `Commands: ${chatCommands}\n`,
  );
  return chat;
}

/** Answers one line typed in the chat: one of the chat's commands, or a message to the model. */
async function answerLine(chat: ChatSession, text: string, io: CliIO): Promise<void> {
  const write = (line: string) => io.stdout.write(`${line}\n`);
  if (text === '/tokens') {
    const state = chat.tokens();
    write(
      `${formatCount(state.tokens)} tokens in ${state.messages} messages: ${((state.tokens / state.limit) * 100).toFixed(1)}% of the limit ` +
        `${formatCount(state.limit)} (trigger ${state.trigger === null ? 'off' : formatCount(state.trigger)}, ` +
        `target ${formatCount(state.target)}); ${chat.compactions} ${chat.compactions === 1 ? 'compaction' : 'compactions'}`,
    );
  } else if (text === '/history') {
    const history = chat.historyLines();
    write(history.length === 0 ? '(no messages yet)' : history.join('\n'));
  } else if (text === '/compact' || text.startsWith('/compact ')) {
    const before = chat.tokens().tokens;
    const result = await chat.compact(text.slice('/compact'.length).trim());
    write(
      result.compacted
        ? `compacted with ${result.event?.strategy}: ${formatCount(before)} → ${formatCount(result.event?.tokensAfter ?? 0)} tokens`
        : `nothing compacted (${result.skipped === 'under-target' ? `already under the target of ${formatCount(chat.tokens().target)} tokens` : result.skipped})`,
    );
  } else if (text.startsWith('/')) {
    write(`unknown command ${text.split(' ')[0]}; commands: ${chatCommands}`);
  } else {
    const turn = await chat.send(text);
    const event = turn.compaction?.event;
    if (event !== undefined) {
      write(
        `[compacted (${event.trigger}) with ${event.strategy}: ${formatCount(event.tokensBefore)} → ${formatCount(event.tokensAfter)} tokens]`,
      );
    }
    write(`assistant> ${turn.answer}`);
  }
}
