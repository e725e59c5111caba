/**
 * The `judge` block of an `llm_judge` metric_list entry: which model judges (any assay backend and its
 * model args), the rubric (a Jinja template over `doc`, `response` and, reference-based, `target`), what
 * form the verdict takes and how it becomes a number, the sampling settings (greedy unless told), and an
 * optional labelled slice (`judge_labels`) for the judge's statistics. Validated once, when the task loads.
 */
import { z } from 'zod';

const scoreVerdict = z.strictObject({
  type: z.literal('score'),
  min: z.number(),
  max: z.number(),
  /**
   * A regular expression whose first group is the score; default: a number after "score" or "rating"
   * (`Score: 7`, `[[7]]`-style brackets allowed), else an answer that is a number and nothing else.
   */
  pattern: z.string().optional(),
  by: z.enum(['generate', 'loglikelihood']).optional(),
});

/**
 * `by`: how the verdict is read. `generate` (the default): the judge writes an answer, parsed as above.
 * `loglikelihood`: the judge scores each option (each whole score of the scale, or each label) as a
 * continuation of the prompt and the most likely one is the verdict, as lm-eval's multiple_choice picks
 * an answer; it never fails to parse, and needs a backend that gives log-likelihoods.
 */
const labelVerdict = z.strictObject({
  type: z.literal('label'),
  /** Each label the judge may answer, with the score it stands for. */
  labels: z.record(z.string(), z.number()).refine((labels) => Object.keys(labels).length >= 2, {
    message: 'needs at least two labels',
  }),
  by: z.enum(['generate', 'loglikelihood']).optional(),
});

const jsonVerdict = z.strictObject({
  type: z.literal('json'),
  /** A JSON Schema subset the judge's object must satisfy: type, properties, required, enum, minimum, maximum. */
  schema: z.record(z.string(), z.unknown()),
  /** The property that holds the score. */
  field: z.string(),
});

const juror = z.strictObject({
  model: z.string().min(1),
  model_args: z.record(z.string(), z.unknown()).default({}),
});

const judgeObject = z.strictObject({
  /** The judge backend; or, for a jury, `jury` lists several. */
  model: z.string().min(1).optional(),
  model_args: z.record(z.string(), z.unknown()).default({}),
  /** A jury: several judges asked the same rubric, their scores combined by `aggregate`. */
  jury: z.array(juror).min(2).optional(),
  /** mean: the jurors' mean score; majority: the score most jurors gave (a tie errors the sample). */
  aggregate: z.enum(['mean', 'majority']).default('mean'),
  prompt: z.string().min(1),
  /** A system message sent before the rubric (chat backends). */
  system: z.string().optional(),
  verdict: z.discriminatedUnion('type', [scoreVerdict, labelVerdict, jsonVerdict]),
  /**
   * reference-based: the rubric sees the gold; reference-free: it does not; pairwise: it sees this run's
   * response and `baseline`'s for the same doc, asked in both orders.
   */
  mode: z.enum(['reference-based', 'reference-free', 'pairwise']).default('reference-based'),
  /** pairwise: the other run (its folder or results file, with sample logs) whose responses are compared. */
  baseline: z.string().optional(),
  generation_kwargs: z.record(z.string(), z.unknown()).default({}),
  /** A JSONL file of `{"doc_id", "label"}` lines: human labels (scores) on a slice of the docs. */
  judge_labels: z.string().optional(),
});

export const judgeConfigSchema = judgeObject.superRefine((config, context) => {
  const { verdict } = config;
  if ((config.model === undefined) === (config.jury === undefined)) {
    context.addIssue({
      code: 'custom',
      path: config.model === undefined ? ['model'] : ['jury'],
      message: 'give exactly one of model (one judge) or jury (several)',
    });
  }
  if (config.mode === 'pairwise') {
    if (config.baseline === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['baseline'],
        message: 'pairwise judging needs a baseline run',
      });
    }
    const positional =
      verdict.type === 'label' && Object.values(verdict.labels).every((score) => [0, 0.5, 1].includes(score));
    if (!positional) {
      context.addIssue({
        code: 'custom',
        path: ['verdict'],
        message:
          'pairwise judging needs a label verdict scoring the response shown first: 1 (it wins), 0 (the second wins), 0.5 (a tie)',
      });
    }
  } else if (config.baseline !== undefined) {
    context.addIssue({ code: 'custom', path: ['baseline'], message: 'baseline is for mode: pairwise' });
  }
  if (verdict.type === 'score' && !(verdict.min < verdict.max)) {
    context.addIssue({ code: 'custom', path: ['verdict', 'max'], message: 'must be greater than min' });
  }
  if (verdict.type !== 'json' && verdict.by === 'loglikelihood') loglikelihoodIssues(config, context);
  if (verdict.type === 'score' && verdict.pattern !== undefined) {
    try {
      new RegExp(verdict.pattern);
    } catch (error) {
      context.addIssue({ code: 'custom', path: ['verdict', 'pattern'], message: (error as Error).message });
    }
  }
});

/** The most options a log-likelihood verdict scores per judge call (each is one request). */
export const MAX_LOGLIKELIHOOD_OPTIONS = 101;

/** What a log-likelihood verdict cannot have: a scale without whole options, a pattern, a chat, sampling. */
function loglikelihoodIssues(
  config: z.output<typeof judgeObject>,
  context: z.core.$RefinementCtx<z.output<typeof judgeObject>>,
): void {
  const { verdict } = config;
  const issue = (path: string[], message: string) => context.addIssue({ code: 'custom', path, message });
  if (verdict.type === 'score') {
    if (!Number.isInteger(verdict.min) || !Number.isInteger(verdict.max)) {
      issue(
        ['verdict', Number.isInteger(verdict.min) ? 'max' : 'min'],
        'a loglikelihood verdict scores each whole number of the scale: min and max must be integers',
      );
    } else if (verdict.max - verdict.min + 1 > MAX_LOGLIKELIHOOD_OPTIONS) {
      issue(
        ['verdict', 'max'],
        `a loglikelihood verdict scores each whole number of the scale, at most ${MAX_LOGLIKELIHOOD_OPTIONS} of them`,
      );
    } else {
      const texts = Array.from({ length: verdict.max - verdict.min + 1 }, (_, index) =>
        String(verdict.min + index),
      );
      prefixIssue(texts, ['verdict', 'max'], issue);
    }
    if (verdict.pattern !== undefined) {
      issue(['verdict', 'pattern'], 'a loglikelihood verdict reads no answer: pattern is for by: generate');
    }
  }
  if (verdict.type === 'label') prefixIssue(Object.keys(verdict.labels), ['verdict', 'labels'], issue);
  if (config.system !== undefined) {
    issue(
      ['system'],
      'a loglikelihood verdict scores the options as continuations of the prompt text, not of a chat: put the system text in the prompt',
    );
  }
  if (Object.keys(config.generation_kwargs).length > 0) {
    issue(
      ['generation_kwargs'],
      'a loglikelihood verdict generates nothing: generation_kwargs is for by: generate',
    );
  }
}

/**
 * An option that begins another (1 and 10, A and A+) is refused: its log-likelihood is that of every answer
 * starting with it, so it outscores the longer option whenever a tokenizer writes the longer one as the
 * shorter plus more tokens (digits one token each, as Llama 2, Mistral and Qwen do): on a 1–10 scale a 10
 * could never win over a 1.
 */
function prefixIssue(
  texts: string[],
  path: string[],
  issue: (path: string[], message: string) => void,
): void {
  for (const shorter of texts) {
    const longer = texts.find((text) => text !== shorter && text.startsWith(shorter));
    if (longer !== undefined) {
      issue(
        path,
        `a loglikelihood verdict cannot tell option ${shorter} from option ${longer}, which begins with it (${shorter}'s log-likelihood counts every answer that starts with it); use options none of which begins another (a scale of single digits such as 1–9, or labels) or by: generate`,
      );
      return;
    }
  }
}

export type JudgeConfig = z.output<typeof judgeConfigSchema>;
export type JurorConfig = z.output<typeof juror>;

/** The judges a config asks: its jury, or its one model. */
export function jurorsOf(config: JudgeConfig): JurorConfig[] {
  return config.jury ?? [{ model: config.model as string, model_args: config.model_args }];
}
export type JudgeVerdictSpec = JudgeConfig['verdict'];

/** The issue of a bad judge block: its path inside the block and the message. */
export interface JudgeConfigIssue {
  path: (string | number)[];
  message: string;
}

export function parseJudgeConfig(raw: unknown): { config: JudgeConfig } | { issue: JudgeConfigIssue } {
  const parsed = judgeConfigSchema.safeParse(raw);
  if (parsed.success) return { config: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
  const message =
    issue.code === 'unrecognized_keys' ? `unknown field ${JSON.stringify(issue.keys[0])}` : issue.message;
  return { issue: { path: issue.code === 'unrecognized_keys' ? [...path, issue.keys[0]] : path, message } };
}
