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
});

const labelVerdict = z.strictObject({
  type: z.literal('label'),
  /** Each label the judge may answer, with the score it stands for. */
  labels: z.record(z.string(), z.number()).refine((labels) => Object.keys(labels).length >= 2, {
    message: 'needs at least two labels',
  }),
});

const jsonVerdict = z.strictObject({
  type: z.literal('json'),
  /** A JSON Schema subset the judge's object must satisfy: type, properties, required, enum, minimum, maximum. */
  schema: z.record(z.string(), z.unknown()),
  /** The property that holds the score. */
  field: z.string(),
});

export const judgeConfigSchema = z
  .strictObject({
    model: z.string().min(1),
    model_args: z.record(z.string(), z.unknown()).default({}),
    prompt: z.string().min(1),
    /** A system message sent before the rubric (chat backends). */
    system: z.string().optional(),
    verdict: z.discriminatedUnion('type', [scoreVerdict, labelVerdict, jsonVerdict]),
    mode: z.enum(['reference-based', 'reference-free']).default('reference-based'),
    generation_kwargs: z.record(z.string(), z.unknown()).default({}),
    /** A JSONL file of `{"doc_id", "label"}` lines: human labels (scores) on a slice of the docs. */
    judge_labels: z.string().optional(),
  })
  .superRefine((config, context) => {
    const { verdict } = config;
    if (verdict.type === 'score' && !(verdict.min < verdict.max)) {
      context.addIssue({ code: 'custom', path: ['verdict', 'max'], message: 'must be greater than min' });
    }
    if (verdict.type === 'score' && verdict.pattern !== undefined) {
      try {
        new RegExp(verdict.pattern);
      } catch (error) {
        context.addIssue({ code: 'custom', path: ['verdict', 'pattern'], message: (error as Error).message });
      }
    }
  });

export type JudgeConfig = z.output<typeof judgeConfigSchema>;
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
