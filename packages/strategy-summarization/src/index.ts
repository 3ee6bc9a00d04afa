import { summarizationDefinition } from './summarization-definition.js';

export {
  type ArtifactTrail,
  type CommandRecord,
  emptyArtifactTrail,
  type FileAction,
  type FileRecord,
  type FileState,
  mergeArtifactTrails,
} from './artifact-trail.js';
export { type CommandPath, pathsOfCommand } from './command-paths.js';
export { createSummarization, type SummarizationSettings } from './create-summarization.js';
export { SummarizationFailedError } from './errors/summarization-failed-error.js';
export { type ExtractArtifactsSettings, extractArtifacts } from './extract-artifacts.js';
export { conversationLanguage } from './languages/conversation-language.js';
export { detectLanguage } from './languages/detect-language.js';
export type { SummaryLanguage, SummarySection } from './languages/summary-language.js';
export {
  type SummaryLanguageCode,
  summaryLanguageCodes,
  summaryLanguageOf,
  summaryLanguages,
} from './languages/summary-languages.js';
export { fitArtifactTrail, renderArtifactTrail } from './render-artifact-trail.js';
export {
  type ResolvedSummarizationOptions,
  resolveSummarizationOptions,
  type SummarizationOptions,
  type SummarizerRequest,
  type SummaryFallback,
  type SummaryPlacement,
  summarizationOptionsSchema,
} from './summarization-options.js';
export { summarizerSystemPrompt } from './summarize-span.js';
export type { SummaryFailure, SummaryFailureReason } from './summary-failure.js';
export {
  defaultSummarySections,
  defaultSummaryTemplate,
  summaryTemplateOf,
  type TemplatePlaceholder,
  templatePlaceholders,
} from './summary-template.js';
export { summarizationDefinition };

/** The `summarization` strategy definition, loaded by name by the registry. */
export default summarizationDefinition;
