import { pruningDefinition } from './pruning-definition.js';

export { markerText } from './marker-text.js';
export { createPruning } from './pruning.js';
export { pruningDefinition } from './pruning-definition.js';
export { type PruningOptions, pruningOptionsSchema } from './pruning-options.js';

export default pruningDefinition;
