/**
 * One request builder per output type: what lm-eval's construct_requests makes of one doc whose prompt
 * parts (context, target, choices) the planner has rendered. Each returns the doc's Instances in lm-eval's
 * order (`index` is the request's position within the doc, the choice index for multiple choice).
 */
import { AssayError } from '../errors.js';
import type { GenerateRequest } from '../models/backend.js';
import type { BuiltPrompt } from '../prompts/context.js';
import type { Instance, RequestArgs } from './requests.js';

/** One doc's rendered parts, and how to build its contexts and Instances. */
export interface DocRequests {
  task: string;
  /** doc_to_text: the question, or for multiple-input tasks (winogrande) the gold choice index. */
  text: unknown;
  /** doc_to_target. */
  target: unknown;
  choices?: string[];
  /** The context for the doc (few-shot examples, description, chat template), or with its text replaced. */
  contextFor: (textOverride?: string) => BuiltPrompt;
  /** An Instance of this doc. */
  instance: (index: number, args: RequestArgs, unconditional?: true) => Instance;
  /** `delimiter + choice` for each choice (choiceContinuations); absent: built for this doc alone. */
  continuations?: ChoiceContinuations;
}

/** `delimiter + choice` for each of a doc's choices. */
export type ChoiceContinuations = (delimiter: string, choices: readonly string[]) => readonly string[];

/**
 * Continuations for the docs of one task, in plan order: a doc with the same choices list as the doc
 * before (a literal doc_to_choice, which every doc shares) gets the same strings, not new ones per doc.
 */
export function choiceContinuations(): ChoiceContinuations {
  let lastChoices: readonly string[] | undefined;
  let lastDelimiter: string | undefined;
  let last: readonly string[] = [];
  return (delimiter, choices) => {
    if (choices !== lastChoices || delimiter !== lastDelimiter) {
      last = choices.map((choice) => joined(delimiter, choice));
      lastChoices = choices;
      lastDelimiter = delimiter;
    }
    return last;
  };
}

export function loglikelihoodRequests(doc: DocRequests): Instance[] {
  const { context } = doc.contextFor();
  return [doc.instance(0, { type: 'loglikelihood', context, continuation: String(doc.target) })];
}

export function rollingRequests(doc: DocRequests): Instance[] {
  return [doc.instance(0, { type: 'loglikelihood_rolling', text: String(doc.target) })];
}

/**
 * `generation`: the normalized request (what is sent); `loggedKwargs`: the kwargs lm-eval's Instance
 * holds and logs (the config's, dict-updated with `genKwargs`), copied per request.
 */
export function generateRequests(
  doc: DocRequests,
  generation: Omit<GenerateRequest, 'context'>,
  loggedKwargs: Record<string, unknown> | undefined,
): Instance[] {
  const { context } = doc.contextFor();
  return [
    doc.instance(0, {
      type: 'generate_until',
      context,
      generation: { ...generation, context },
      kwargs: structuredClone(loggedKwargs),
    }),
  ];
}

/** `mcMode: 'generate'`: the lettered question (its own context), answered by generation. */
export function generativeChoiceRequests(
  doc: DocRequests,
  context: string,
  generation: Omit<GenerateRequest, 'context'>,
): Instance[] {
  return [doc.instance(0, { type: 'generate_until', context, generation: { ...generation, context } })];
}

/**
 * `delimiter + text` as one flat string. V8 makes `a + b` (or a template) a rope that, once hashed or
 * compared, keeps both itself and a flat copy; a plan holds a continuation per choice per doc until
 * its sample log is written (32 bytes more each: 26 MB at 200,000 four-choice docs).
 */
function joined(delimiter: string, text: string): string {
  return [delimiter, text].join('');
}

/**
 * A log-likelihood request per choice: the choice as continuation of the doc's context, or, for
 * multiple-input tasks (doc_to_text an index), each choice as the context of the shared continuation.
 * acc_mutual_info adds each choice's unconditional request ("", delimiter + choice).
 */
export function multipleChoiceRequests(doc: DocRequests, wantsMutualInfo: boolean): Instance[] {
  const { choices } = doc;
  if (!choices) {
    throw new AssayError('invalid_config', `task ${doc.task} is multiple_choice but has no doc_to_choice`, {
      location: { task: doc.task, field: 'doc_to_choice' },
    });
  }
  const instances: Instance[] = [];
  if (typeof doc.text === 'number') {
    const continuation = String(doc.target);
    choices.forEach((choice, index) => {
      const built = doc.contextFor(choice);
      instances.push(
        doc.instance(index, {
          type: 'loglikelihood',
          context: built.context,
          continuation: joined(built.targetDelimiter, continuation),
        }),
      );
    });
    return instances;
  }
  const built = doc.contextFor();
  const continuations = (doc.continuations ?? choiceContinuations())(built.targetDelimiter, choices);
  for (let index = 0; index < choices.length; index++) {
    instances.push(
      doc.instance(index, {
        type: 'loglikelihood',
        context: built.context,
        continuation: continuations[index],
      }),
    );
  }
  if (wantsMutualInfo) {
    for (let index = 0; index < choices.length; index++) {
      instances.push(
        doc.instance(
          choices.length + index,
          { type: 'loglikelihood', context: '', continuation: continuations[index] },
          true,
        ),
      );
    }
  }
  return instances;
}
