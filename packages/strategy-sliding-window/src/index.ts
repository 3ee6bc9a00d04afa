import { slidingWindowDefinition } from './sliding-window-definition.js';

export { markerText } from './marker-text.js';
export { createSlidingWindow } from './sliding-window.js';
export { slidingWindowDefinition } from './sliding-window-definition.js';
export { type SlidingWindowOptions, slidingWindowOptionsSchema } from './sliding-window-options.js';

export default slidingWindowDefinition;
