import { toolResultTruncationDefinition } from './tool-result-truncation-definition.js';

export {
  type CappedToolResults,
  type CapToolResultsOptions,
  capToolResults,
  ingestionCapName,
} from './cap-tool-results.js';
export { maskText } from './shorten-result.js';
export { createToolResultTruncation } from './tool-result-truncation.js';
export { toolResultTruncationDefinition } from './tool-result-truncation-definition.js';
export {
  type ToolResultTruncationOptions,
  toolResultTruncationOptionsSchema,
} from './tool-result-truncation-options.js';

export default toolResultTruncationDefinition;
