import { pruningDefinition } from './pruning-definition.js';

export { createPruning } from './pruning.js';
export { pruningDefinition } from './pruning-definition.js';
export { type PruningOptions, pruningOptionsSchema } from './pruning-options.js';
export { markerText } from './removal-markers.js';

export default pruningDefinition;
