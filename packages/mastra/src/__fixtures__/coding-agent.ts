import { createAnthropic } from '@ai-sdk/anthropic';
import { Agent } from '@mastra/core/agent';
import type { InputProcessor } from '@mastra/core/processors';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

/** The text of a source file of about `characters` characters, its path on the first line. */
export function fileText(path: string, characters = 8000): string {
  const line = `export const value = compute('${path}'); // keeps the build green\n`;
  return `// ${path}\n${line.repeat(Math.ceil(characters / line.length))}`;
}

/** A Mastra agent with a `read_file` tool (and any others), driving `@ai-sdk/anthropic` at `baseURL`, or `model`. */
export function codingAgent(settings: {
  baseURL: string;
  model?: ConstructorParameters<typeof Agent>[0]['model'];
  inputProcessors?: InputProcessor[];
  tools?: Record<string, ReturnType<typeof createTool>>;
  memory?: ConstructorParameters<typeof Agent>[0]['memory'];
  /** Characters of each file `read_file` returns. Default 8,000. */
  fileCharacters?: number;
}): Agent {
  const readFile = createTool({
    id: 'read_file',
    description: 'Reads a file of the project.',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ context }) => fileText(context.path, settings.fileCharacters),
  });
  return new Agent({
    name: 'coder',
    instructions: 'You fix bugs in the project.',
    model:
      settings.model ?? createAnthropic({ baseURL: settings.baseURL, apiKey: 'test' })('claude-sonnet-4-5'),
    tools: { read_file: readFile, ...settings.tools },
    ...(settings.inputProcessors === undefined ? {} : { inputProcessors: settings.inputProcessors }),
    ...(settings.memory === undefined ? {} : { memory: settings.memory }),
  });
}
