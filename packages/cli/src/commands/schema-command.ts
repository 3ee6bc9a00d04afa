import { compactionConfigSchema } from '@compaction/core';
import { createInstalledStrategyRegistry } from '@compaction/server';
import type { CliIO } from '../cli-io.js';
import { schemaHelp } from '../help.js';
import { writeOutput } from '../output/write-output.js';
import { helpFlagOptions, parseFlags, printedHelp } from '../parse-flags.js';

/** `compaction schema`: prints the config's JSON Schema with every installed strategy's options. */
export async function schemaCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags('schema', args, {
    ...helpFlagOptions,
    output: { type: 'string', short: 'o' },
  });
  if (printedHelp(values, schemaHelp, io)) return 0;
  const schema = compactionConfigSchema(await createInstalledStrategyRegistry());
  await writeOutput(io, values.output, `${JSON.stringify(schema, null, 2)}\n`);
  return 0;
}
