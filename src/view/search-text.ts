import type { SampleView } from './api.js';

function asText(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

/** What text search looks in: everything a reader sees on the sample. Shared by the server and the static app. */
export function searchableText(view: SampleView): string {
  return [
    view.prompt,
    view.target,
    ...view.responses,
    view.filteredResponse,
    ...(view.choices ?? []).map((choice) => choice.continuation),
    asText(view.doc),
  ]
    .join('\n')
    .toLowerCase();
}
