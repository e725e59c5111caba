/**
 * `mcMode: 'generate'` (`--mc_mode generate`): multiple-choice tasks asked as a question with lettered options, answered by
 * generation (chat endpoints give no prompt log-probabilities). The letter is read back with
 * `extractChoice`; an answer naming no option scores 0, never a guess.
 */
import { AssayError } from '../errors.js';
import { extractChoice } from '../metrics/extract-choice.js';
import type { GenerateRequest } from '../models/backend.js';
import type { ContextConfig } from '../prompts/context.js';
import { docToChoice, docToTarget, docToText } from '../prompts/doc-to.js';
import type { Doc } from '../task-config/doc.js';
import type { FunctionRef } from '../task-config/function-ref.js';
import type { MetricConfig } from '../task-config/metric-config.js';
import type { LoadedTask } from '../tasks/task.js';
import { normalizeGenerationKwargs } from './generation-kwargs.js';

export type McMode = 'loglikelihood' | 'generate';

export function checkMcMode(value: McMode | undefined): McMode {
  if (value === undefined || value === 'loglikelihood') return 'loglikelihood';
  if (value === 'generate') return 'generate';
  throw new AssayError('bad_option', `\`mcMode\` must be loglikelihood or generate, got "${String(value)}"`, {
    location: { field: 'mcMode' },
  });
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const INSTRUCTION = 'Answer with the letter of the correct option.';
/** lm-eval prompts commonly end with "Answer:"; the options go before the final one. */
const TRAILING_ANSWER = /\s*Answer:\s*$/i;

/** Only acc is defined: acc_norm, acc_mutual_info and the like need log-likelihoods. */
export const GENERATE_METRICS: MetricConfig[] = [{ metric: 'acc' }];

function functionRef<F>(ref: string, fn: F): FunctionRef<F> {
  return { kind: 'function', ref, file: '<assay mcMode generate>', fn };
}

/** Refuses tasks whose multiple-choice scoring cannot be re-read from a letter. */
export function checkGenerativeChoice(task: LoadedTask): void {
  if (task.custom || task.config.process_results) {
    throw new AssayError(
      'invalid_config',
      `\`mcMode\` generate: task ${task.name} scores with its own process_results, which needs log-likelihoods`,
      { location: { task: task.name, field: 'process_results' } },
    );
  }
}

/**
 * The task's prompt fields rewritten for generation: the question, its options as "A. …" lines and an
 * instruction; few-shot examples answer with their letter.
 */
export function generativeChoiceConfig(task: LoadedTask): ContextConfig {
  const { config } = task;
  const location = { task: task.name, docId: 'few-shot or eval doc' };
  const parts = (doc: Doc) => {
    const text = docToText(config, doc, location);
    if (typeof text === 'number') {
      throw new AssayError(
        'invalid_config',
        `\`mcMode\` generate: task ${task.name} is a multiple-input task (doc_to_text picks a choice), which has no single question to ask`,
        { location: { task: task.name, field: 'doc_to_text' } },
      );
    }
    const choices = docToChoice(config, doc, location);
    if (choices.length > LETTERS.length) {
      throw new AssayError(
        'invalid_config',
        `\`mcMode\` generate: more than 26 options in task ${task.name}`,
        {
          location: { task: task.name, field: 'doc_to_choice' },
        },
      );
    }
    return { text: String(text).replace(TRAILING_ANSWER, ''), choices };
  };
  return {
    ...config,
    doc_to_text: functionRef('mc_generate.doc_to_text', (doc: Doc) => {
      const { text, choices } = parts(doc);
      const options = choices.map((choice, index) => `${LETTERS[index]}. ${choice}`).join('\n');
      return `${text}\n${options}\n${INSTRUCTION}\nAnswer:`;
    }),
    doc_to_target: functionRef('mc_generate.doc_to_target', (doc: Doc) => {
      const { choices } = parts(doc);
      return LETTERS[goldIndex(docToTarget(config, doc, location), choices, task.name)];
    }),
    doc_to_choice: undefined,
    target_delimiter: ' ',
  };
}

/** The gold option as an index: doc_to_target gives an index or the text of a choice. */
export function goldIndex(target: unknown, choices: readonly string[], task: string): number {
  const index = typeof target === 'number' ? target : choices.indexOf(String(target));
  if (!Number.isInteger(index) || index < 0 || index >= choices.length) {
    throw new AssayError(
      'bad_data',
      `\`mcMode\` generate: target ${JSON.stringify(target)} is not one of the choices`,
      {
        location: { task },
      },
    );
  }
  return index;
}

/** Greedy and short: the answer is a letter. --gen_kwargs still applies. */
export function generativeChoiceGeneration(
  runKwargs: Record<string, unknown>,
  fewshotDelimiter: string,
): Omit<GenerateRequest, 'context'> {
  return normalizeGenerationKwargs(
    { until: ['\n\n'], max_gen_toks: 32, do_sample: false, temperature: 0 },
    runKwargs,
    fewshotDelimiter,
  );
}

/** A planned doc's answer key (the fields of plan.ts's PlannedDoc it reads; plan.ts imports this file). */
export interface ChoiceDoc {
  target: unknown;
  choices?: string[];
}

export function generativeChoiceResults(
  taskName: string,
  planned: ChoiceDoc,
  results: unknown[],
): Record<string, unknown> {
  const choices = planned.choices ?? [];
  const answer = String(results[0] ?? '');
  const picked = extractChoice(answer, choices);
  const gold = goldIndex(planned.target, choices, taskName);
  return { acc: picked === gold ? 1 : 0 };
}
