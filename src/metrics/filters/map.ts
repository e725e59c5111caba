/**
 * lm-eval `map` (MapFilter): `mapping_dict.get(resp, default_value)` on each response. YAML mapping keys
 * arrive as strings, so a numeric response is looked up by its decimal form (Python would tell 1 from "1").
 */
import type { FilterStepConfig } from '../../task-config/filter-config.js';
import { badArgument, type FilterDefinition, type FilterStep, iterateResponses } from './types.js';

function build(config: FilterStepConfig): FilterStep {
  const mapping = config.mapping_dict ?? {};
  if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) {
    badArgument(config, 'mapping_dict', 'a mapping');
  }
  const table = new Map(Object.entries(mapping as Record<string, unknown>));
  const defaultValue = config.default_value ?? null;
  return (responses) =>
    iterateResponses(responses, 'map').map((response) => {
      const key =
        typeof response === 'string' ? response : typeof response === 'number' ? String(response) : undefined;
      return key !== undefined && table.has(key) ? table.get(key) : defaultValue;
    });
}

export const mapFilter: FilterDefinition = { arguments: ['mapping_dict', 'default_value'], build };
