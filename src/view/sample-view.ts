import type { ReadSampleLine } from '../results/schema.js';
import type { ChoiceView, SampleView } from './api.js';
import { judgeCallsView } from './judge-view.js';
import { questionText } from './question-text.js';

/** Model outputs and docs are shown as plain text: strings as they are, anything else as JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

function requestArguments(sample: ReadSampleLine): unknown[][] {
  const args = sample.arguments;
  if (!args) return [];
  // assay and lm-eval ≥ 0.4.3 write {gen_args_0: {arg_0, arg_1}}; older lm-eval wrote [[arg_0, arg_1]].
  if (Array.isArray(args)) return args.map((entry) => (Array.isArray(entry) ? entry : [entry]));
  return Object.values(args).map((entry) => Object.values(entry));
}

/** A log-likelihood response is written as [[logprob, is_greedy]] (strings, by lm-eval's sanitize_list). */
function loglikelihoodOf(response: unknown): { logprob: number; isGreedy: boolean } | null {
  const pair = Array.isArray(response) && Array.isArray(response[0]) ? response[0] : response;
  if (!Array.isArray(pair) || pair.length !== 2) return null;
  const logprob = Number(pair[0]);
  if (!Number.isFinite(logprob) || pair[0] === '' || typeof pair[0] === 'boolean') return null;
  const greedy = pair[1];
  if (greedy !== true && greedy !== false && greedy !== 'True' && greedy !== 'False') return null;
  return { logprob, isGreedy: greedy === true || greedy === 'True' };
}

function choicesOf(sample: ReadSampleLine, args: unknown[][], target: string): ChoiceView[] | null {
  if (sample.resps.length === 0) return null;
  const parsed = sample.resps.map(loglikelihoodOf);
  if (parsed.some((entry) => entry === null)) return null;
  const scored = parsed as { logprob: number; isGreedy: boolean }[];
  let best = 0;
  for (let i = 1; i < scored.length; i++) if (scored[i].logprob > scored[best].logprob) best = i;
  const continuations = scored.map((_, i) => asText(args[i]?.[1] ?? ''));
  // lm-eval's target for multiple choice is the gold index, or the gold choice's text.
  let gold = /^\d+$/.test(target.trim()) ? Number(target.trim()) : -1;
  if (gold < 0 || gold >= scored.length)
    gold = continuations.findIndex((text) => text.trim() === target.trim());
  return scored.map((entry, i) => ({
    continuation: continuations[i],
    logprob: entry.logprob,
    isGreedy: entry.isGreedy,
    chosen: i === best,
    gold: i === gold,
  }));
}

export function metricValue(value: unknown): number | boolean | string | null {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  if (value === null || value === undefined) return null;
  return JSON.stringify(value);
}

/** Whether the line's judge calls (`judge`) score `metric`: a TypeScript task's judge has a name of its own. */
function judgedBy(judge: unknown, metric: string | undefined): boolean {
  return (
    metric !== undefined &&
    Array.isArray(judge) &&
    judge.some((call) => typeof call === 'object' && call !== null && call.metric === metric)
  );
}

/**
 * 1/true is correct, 0/false incorrect; anything else (a BLEU score, a list) is neither. So is every value of
 * `llm_judge`: a judge's score is a grade on its rubric's scale (1 is the worst of a 1–5 rubric), which the
 * sample line does not state.
 */
export function correctness(value: unknown, metric?: string, judge?: unknown): boolean | null {
  if (metric === 'llm_judge' || judgedBy(judge, metric)) return null;
  if (value === true || value === 1) return true;
  if (value === false || value === 0) return false;
  return null;
}

export function sampleView(sample: ReadSampleLine, line: number): SampleView {
  const args = requestArguments(sample);
  const target = asText(sample.target);
  const choices = choicesOf(sample, args, target);
  const responses = choices
    ? []
    : sample.resps.map((response) =>
        Array.isArray(response) && response.length === 1 ? asText(response[0]) : asText(response),
      );
  const chosen = choices?.find((choice) => choice.chosen);
  const filtered = sample.filtered_resps;
  const filteredResponse = chosen
    ? chosen.continuation
    : filtered.length === 1
      ? asText(filtered[0])
      : asText(filtered);
  const metrics: SampleView['metrics'] = {};
  for (const name of sample.metrics) metrics[name] = metricValue(sample[name]);
  const first = sample.metrics[0];
  const prompt = asText(args[0]?.[0] ?? '');
  return {
    line,
    docId: sample.doc_id,
    filter: sample.filter,
    prompt,
    question: questionText(prompt, sample.doc, sample.fewshot_ids?.length ?? 0),
    target,
    responses,
    filteredResponse,
    choices,
    metrics,
    correct: first === undefined ? null : correctness(sample[first], first, sample.judge),
    error: sample.error ?? null,
    doc: sample.doc,
    judge: judgeCallsView(sample.judge),
  };
}
