/** lm-eval `uppercase`: `resp.upper()` on each response. */
import { mapStrings } from './lowercase.js';
import type { FilterDefinition } from './types.js';

export const uppercaseFilter: FilterDefinition = {
  arguments: [],
  build: () => mapStrings('uppercase', (text) => text.toUpperCase()),
};
