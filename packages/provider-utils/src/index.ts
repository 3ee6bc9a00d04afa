export { assertEntries, notPlainJsonIssue } from './assert-entries.js';
export { callSdkMethod, type SdkMethod } from './call-sdk-method.js';
export { contextOverflowOfError } from './context-overflow-of-error.js';
export { ConversionProblem } from './conversion-problem.js';
export {
  createModelLimitsResolver,
  type ModelLimitsResolverSettings,
} from './create-model-limits-resolver.js';
export { defineSdkProvider, type SdkProviderOptions } from './define-sdk-provider.js';
export { findModelEntry, type ModelTableEntry } from './find-model-entry.js';
export { frozenCopy } from './frozen-copy.js';
export { joinSpans, type MessageSpan } from './join-spans.js';
export {
  isKeyOrder,
  type KeyOrder,
  keyOrderDifference,
  setField,
  withKeyOrder,
} from './key-order.js';
export { type LazyClientSettings, lazyClient } from './lazy-client.js';
export { type ModelTableRow, modelTable } from './model-table.js';
export { overflowFiguresOfText } from './overflow-figures-of-text.js';
export type { ProviderNativeCompaction } from './provider-native-compaction.js';
export {
  type ProviderSettingsSchemaOptions,
  providerSettingsSchema,
} from './provider-settings-schema.js';
export {
  type GenerateDefaults,
  resolveGenerateRequest,
} from './resolve-generate-request.js';
export {
  createSdkClient,
  type SdkClientSettings,
  type SdkClientSource,
} from './sdk-client.js';
export {
  type ModelCatalog,
  type SdkProvider,
  type SdkProviderBase,
  type SdkProviderSettings,
  sdkProviderBase,
} from './sdk-provider-settings.js';
export {
  type ProviderErrorMapping,
  toProviderCompactionError,
} from './to-provider-compaction-error.js';
