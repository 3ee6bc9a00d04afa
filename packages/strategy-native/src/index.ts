import { nativeDefinition } from './native-definition.js';

export { createNative, type NativeSettings } from './create-native.js';
export { nativeCompactionOf } from './native-compaction.js';
export { nativeDefinition } from './native-definition.js';
export { defaultFallback, type NativeOptions, nativeOptionsSchema } from './native-options.js';

export default nativeDefinition;
