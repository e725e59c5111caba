/** lm-eval `take_first`: a doc's list of responses becomes its first response. */
import { type FilterDefinition, iterateResponses, selectIndex } from './types.js';

export const takeFirstFilter: FilterDefinition = {
  arguments: [],
  build: () => (responses) => selectIndex(iterateResponses(responses, 'take_first'), 0, 'take_first'),
};
