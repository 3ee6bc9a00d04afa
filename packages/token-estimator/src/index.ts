export { anthropicProfile } from './anthropic-profile.js';
export {
  type EstimatorSettingsIssue,
  InvalidEstimatorSettingsError,
} from './errors/invalid-estimator-settings-error.js';
export type { EstimatorProfile } from './estimator-profile.js';
export { cl100kProfile, o200kProfile } from './estimator-profiles.js';
export * from './media/index.js';
export {
  createTextEstimator,
  type TextEstimator,
  type TextEstimatorSettings,
} from './text-estimator.js';
export {
  measureText,
  type TextFeature,
  type TextFeatureWeights,
  textFeatureBonds,
  textFeatureNames,
  textFeatureOrders,
} from './text-features.js';
export type { EncodingName } from './vocabulary/vocabulary.js';
