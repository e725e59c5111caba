/**
 * Compiles every Jinja template a task config renders, without a doc: a syntax error is found when the
 * task is validated, not at the first doc of a run. A string that names a dataset column is also valid
 * Jinja (plain text), so no data is needed to decide which strings are templates.
 */
import { AssayError, type ErrorLocation } from '../errors.js';
import type { TaskConfig } from '../task-config/task-config.js';
import { checkTemplate } from './template.js';

type KeyPath = readonly (string | number)[];

/** The template strings of a config, with the key path each was written at. */
export function taskTemplates(config: TaskConfig): Array<{ keyPath: KeyPath; source: string }> {
  const found: Array<{ keyPath: KeyPath; source: string }> = [];
  const add = (keyPath: KeyPath, value: unknown) => {
    if (typeof value === 'string') found.push({ keyPath, source: value });
  };
  // doc_to_choice lists and dicts are used as written (lm-eval renders only a string doc_to_choice).
  for (const field of [
    'description',
    'doc_to_text',
    'doc_to_target',
    'doc_to_choice',
    'gen_prefix',
    'doc_to_decontamination_query',
  ] as const) {
    add([field], config[field]);
  }
  const fewshot = config.fewshot_config;
  if (fewshot) {
    for (const field of ['doc_to_text', 'doc_to_target', 'doc_to_choice', 'gen_prefix'] as const) {
      add(['fewshot_config', field], fewshot[field]);
    }
  }
  return found;
}

/**
 * Throws the first template that does not compile, as a `template_error` located by `locate` (the file
 * and line that wrote the field).
 */
export async function checkTaskTemplates(
  config: TaskConfig,
  locate: (keyPath: KeyPath) => Promise<ErrorLocation>,
): Promise<void> {
  for (const { keyPath, source } of taskTemplates(config)) {
    const field = keyPath.join('.');
    try {
      checkTemplate(source, { task: config.task, field });
    } catch (error) {
      if (!(error instanceof AssayError)) throw error;
      throw new AssayError(error.code, error.message, {
        location: { ...(await locate(keyPath)), task: config.task, field },
        cause: error.cause,
      });
    }
  }
}
