/** Settings shared by the provider request generators. */
export interface ProviderRequestArbitrarySettings {
  /** Fewest tool-use rounds between the original task and the newest user request. Default 3. */
  minRounds?: number;
  /** Most tool-use rounds. Default 16. */
  maxRounds?: number;
  /** Whether extended thinking (Anthropic) or reasoning (OpenAI) is on; default: either. */
  thinking?: boolean;
  /** Longest tool result, in characters: results range from a few characters to this. Default 40,000. */
  maxResultLength?: number;
  /** Whether the request ends inside a tool loop, its last message carrying tool results; default: either. */
  endsInToolLoop?: boolean;
}

/** The settings with their defaults filled in. */
export interface ResolvedRequestArbitrarySettings {
  minRounds: number;
  maxRounds: number;
  thinking: boolean | undefined;
  maxResultLength: number;
  endsInToolLoop: boolean | undefined;
}

/** Fills in the defaults of {@link ProviderRequestArbitrarySettings}. */
export function resolveRequestArbitrarySettings(
  settings: ProviderRequestArbitrarySettings,
): ResolvedRequestArbitrarySettings {
  const minRounds = settings.minRounds ?? 3;
  return {
    minRounds,
    maxRounds: Math.max(minRounds, settings.maxRounds ?? 16),
    thinking: settings.thinking,
    maxResultLength: Math.max(20, settings.maxResultLength ?? 40_000),
    endsInToolLoop: settings.endsInToolLoop,
  };
}
