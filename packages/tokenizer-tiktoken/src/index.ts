export {
  encodingForModel,
  type TiktokenEncodingName,
  tiktokenEncodingNames,
} from './tiktoken-encoding-for-model.js';
export {
  createTiktokenEstimator,
  type TiktokenEstimator,
  type TiktokenEstimatorSettings,
} from './tiktoken-estimator.js';
