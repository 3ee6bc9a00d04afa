import { summarizationDefinition } from './summarization-definition.js';

export {
  type ArtifactTrail,
  type CommandRecord,
  emptyArtifactTrail,
  type FileAction,
  type FileRecord,
  mergeArtifactTrails,
} from './artifact-trail.js';
export { type CommandPath, pathsOfCommand } from './command-paths.js';
export { createSummarization, type SummarizationSettings } from './create-summarization.js';
export { SummarizationFailedError } from './errors/summarization-failed-error.js';
export { type ExtractArtifactsSettings, extractArtifacts } from './extract-artifacts.js';
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
  type TemplatePlaceholder,
  templatePlaceholders,
} from './summary-template.js';
export { summarizationDefinition };

/** The `summarization` strategy definition, loaded by name by the registry. */
export default summarizationDefinition;
