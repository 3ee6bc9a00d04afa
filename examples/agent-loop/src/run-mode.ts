import { contextWindow } from './compaction-settings.js';
import { type ScriptedFormat, type ScriptedModel, startScriptedModel } from './scripted-server.js';

/** How a script runs: online against the API, or offline against a scripted stand-in. */
export interface RunMode {
  /** True when the API key is set and `--offline` is not given. */
  online: boolean;
  apiKey: string | undefined;
  /** The model the requests name: the model variable when set, else the script's default. */
  model: string;
  /** The scripted stand-in, when offline. */
  scripted: ScriptedModel | undefined;
}

/**
 * Picks the mode from the environment and, offline, starts the scripted stand-in in the API's `format`; it
 * refuses its ninth answer as too long, so every run shows one recovery from an overflow.
 */
export async function startRunMode(settings: {
  keyVariable: string;
  modelVariable: string;
  defaultModel: string;
  format: ScriptedFormat;
}): Promise<RunMode> {
  const apiKey = process.env[settings.keyVariable];
  const online = apiKey !== undefined && apiKey !== '' && !process.argv.includes('--offline');
  const model = process.env[settings.modelVariable] ?? settings.defaultModel;
  const scripted = online
    ? undefined
    : await startScriptedModel(settings.format, { contextWindow, overflowAt: 9 });
  return { online, apiKey, model, scripted };
}
