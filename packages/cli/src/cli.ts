import { readFileSync } from 'node:fs';
import { usageError } from '@compaction/server';
import { type CliIO, processIO } from './cli-io.js';
import { chatCommand } from './commands/chat-command.js';
import { compactCommand } from './commands/compact-command.js';
import { countCommand } from './commands/count-command.js';
import { mcpCommand } from './commands/mcp-command.js';
import { migrateCommand } from './commands/migrate-command.js';
import { proxyCommand } from './commands/proxy-command.js';
import { recallCommand } from './commands/recall-command.js';
import { schemaCommand } from './commands/schema-command.js';
import { serveCommand } from './commands/serve-command.js';
import { simulateCommand } from './commands/simulate-command.js';
import { didYouMean } from './did-you-mean.js';
import { mainHelp } from './help.js';
import { reportError } from './report-error.js';

type Command = (args: string[], io: CliIO) => Promise<number>;

const commands: Record<string, Command> = {
  compact: compactCommand,
  count: countCommand,
  simulate: simulateCommand,
  recall: recallCommand,
  mcp: mcpCommand,
  serve: serveCommand,
  proxy: proxyCommand,
  chat: chatCommand,
  schema: schemaCommand,
  migrate: migrateCommand,
};

/** The CLI's version, from its package.json. */
export function cliVersion(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return packageJson.version;
}

/**
 * Runs the `compaction` command line and returns the exit code. Errors the user can fix (bad flags, bad
 * input, invalid configs, Compaction errors) print one line on standard error, without a stack trace;
 * anything else is a bug and prints its stack. With `--json`, an error is one JSON document on standard error
 * instead: `{"version": 1, "error": {"code", "message", "exitCode"}}` (the package's `schemas/error.schema.json`).
 */
export async function runCli(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...args] = argv;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      const topic = name === 'help' ? args[0] : undefined;
      if (topic !== undefined && commands[topic] !== undefined) return await commands[topic]!(['--help'], io);
      if (topic !== undefined) throw unknownCommand(topic);
      io.stdout.write(mainHelp);
      return name === undefined ? 1 : 0;
    }
    if (name === '--version' || name === '-v') {
      io.stdout.write(`${cliVersion()}\n`);
      return 0;
    }
    const command = commands[name];
    if (command === undefined) throw unknownCommand(name);
    return await command(args, io);
  } catch (error) {
    return reportError(error, io, { json: jsonRequested(args) });
  }
}

/** A command that is not one, with the closest real one and the list. */
function unknownCommand(name: string): Error {
  const names = Object.keys(commands);
  return usageError(
    `unknown command "${name}"${didYouMean(name, names)} (commands: ${names.join(', ')}; see compaction --help)`,
  );
}

/** Whether `--json` is among the flags (before a `--`, after which everything is an input). */
function jsonRequested(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}
