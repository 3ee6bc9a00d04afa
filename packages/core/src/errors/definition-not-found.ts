/** What a name that is neither registered nor installed is reported with. */
export interface DefinitionNotFoundSettings {
  /** The names that are registered. */
  registeredNames: string[];
  /** The package that would provide the name. */
  packageName: string;
  cause?: unknown;
}

/** The message of a strategy or provider that is neither registered nor installed. */
export function definitionNotFoundMessage(label: string, name: string, settings: DefinitionNotFoundSettings) {
  const registered = settings.registeredNames.length > 0 ? settings.registeredNames.join(', ') : 'none';
  return `No ${label} named "${name}". Registered: ${registered}. Install ${settings.packageName} to use it.`;
}
