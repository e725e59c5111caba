/**
 * The perplexity stage of a run: settles the mode of every loglikelihood_rolling task at planning time
 * (failing there when the backend cannot serve it), scores the token-mode tasks itself (their instances
 * skip executeRequests), returns the scored docs with token_perplexity and scored-span counts, and builds the
 * `perplexity` block of results.json.
 */

import type { RunListener } from '../../events.js';
import { hasTokenScoring, type ModelBackend, type TokenizerInfo } from '../../models/backend.js';
import type { MetricConfig } from '../../task-config/metric-config.js';
import type { TaskPlan } from '../plan.js';
import type { Instance } from '../requests.js';
import type { Responses, TaskResponses } from '../responses.js';
import type { ResolvedRunOptions } from '../run-options.js';
import type { ScoredDoc, ScoredTask } from '../score.js';
import { perplexityReport } from './report.js';
import { scoreTexts, sum, type TextPerplexity } from './score-texts.js';
import {
  checkBackendFor,
  chooseOptions,
  describeParameters,
  type PerplexitySettings,
  settle,
} from './settings.js';
import type { DocPerplexity, PerplexityReport, ReportIdentity, TokenizerBlock } from './types.js';

export function tokenizerBlock(info: TokenizerInfo | undefined): TokenizerBlock | null {
  if (!info) return null;
  return {
    name: info.name,
    vocab_size: info.vocabSize,
    vocab_sha256: info.vocabSha256,
    ...(info.note ? { note: info.note } : {}),
  };
}

interface TaskPerplexity {
  plan: TaskPlan;
  settings: PerplexitySettings;
  /** Per planned doc (same order as plan.docs). */
  texts: TextPerplexity[];
  seconds: number;
}

/**
 * The metrics a rolling task is aggregated with: its own list, and token_perplexity after them when every
 * text's tokens are known (a tokenizing backend). A new list: the task's config (which results.json's
 * `configs` records, as lm-eval records the task file's metric_list) is left as the file says. The run
 * and the merge of its shards (which knows the tokens from the logged metrics) both go through here.
 */
export function withTokenPerplexity(metricList: MetricConfig[], hasTokens: boolean): MetricConfig[] {
  if (!hasTokens || metricList.some((entry) => entry.metric === 'token_perplexity')) return metricList;
  return [...metricList, { metric: 'token_perplexity' }];
}

export class PerplexityStage {
  private constructor(
    private readonly tasks: Map<string, TaskPerplexity>,
    private readonly tokenizer: TokenizerInfo | undefined,
  ) {}

  /** Planning: every rolling task gets settled settings, or the run stops here with the reason. */
  static async plan(
    backend: ModelBackend,
    plans: TaskPlan[],
    perplexity: ResolvedRunOptions['perplexity'],
  ): Promise<PerplexityStage> {
    const rolling = plans.filter((plan) => plan.task.config.output_type === 'loglikelihood_rolling');
    const chosen = rolling.map((plan) => ({
      plan,
      ...chooseOptions(perplexity, plan.task.config.metadata, plan.task.name),
    }));
    for (const entry of chosen)
      checkBackendFor(backend, entry.options.mode ?? 'rolling', entry.plan.task.name);
    const tokenizer = rolling.length && hasTokenScoring(backend) ? await backend.tokenizerInfo() : undefined;
    const tasks = new Map<string, TaskPerplexity>();
    for (const entry of chosen) {
      tasks.set(entry.plan.task.name, {
        plan: entry.plan,
        settings: settle(entry.options, entry.source, tokenizer),
        texts: [],
        seconds: 0,
      });
    }
    return new PerplexityStage(tasks, tokenizer);
  }

  /** Instances this stage answers itself (token modes); the rest go through executeRequests. */
  ownsInstance(instance: Instance): boolean {
    const task = this.tasks.get(instance.task);
    return task !== undefined && task.settings.mode !== 'rolling';
  }

  /**
   * Scores the token-mode tasks and returns their responses (each request's Σ log p, one per repeat)
   * and, for rolling tasks whose backend has a tokenizer, counts their tokens. Runs after executeRequests
   * has answered the rolling tasks (`responses`, which it reads and does not change).
   */
  async run(backend: ModelBackend, responses: Responses, listener?: RunListener): Promise<Responses> {
    const answered: Responses = new Map();
    for (const task of this.tasks.values()) {
      const started = performance.now();
      const docs = task.plan.docs;
      const texts = docs.map((doc) => {
        const args = doc.instances[0]?.args;
        return args?.type === 'loglikelihood_rolling' ? args.text : '';
      });
      if (task.settings.mode === 'rolling') {
        task.texts = await this.countRolling(backend, docs, texts, responses.get(task.plan.task.name));
      } else {
        listener?.({
          type: 'request-batch-start',
          requestType: 'loglikelihood_rolling',
          total: texts.length,
          unique: texts.length,
          tasks: [task.plan.task.name],
        });
        task.texts = await scoreTexts(backend, texts, task.settings, this.tokenizer, {
          progress: (done) =>
            listener?.({
              type: 'request-progress',
              requestType: 'loglikelihood_rolling',
              done,
              total: texts.length,
            }),
        });
        const ofTask: TaskResponses = { resps: [] };
        docs.forEach((doc, index) => {
          for (const instance of doc.instances)
            ofTask.resps[instance.id] = new Array(instance.repeats).fill(task.texts[index].logprob);
        });
        answered.set(task.plan.task.name, ofTask);
        listener?.({
          type: 'request-batch-end',
          requestType: 'loglikelihood_rolling',
          total: texts.length,
          seconds: (performance.now() - started) / 1000,
        });
      }
      task.seconds = (performance.now() - started) / 1000;
    }
    return answered;
  }

  /** Rolling answers came from executeRequests; only token counts are added here. */
  private async countRolling(
    backend: ModelBackend,
    docs: TaskPlan['docs'],
    texts: string[],
    answers: TaskResponses | undefined,
  ): Promise<TextPerplexity[]> {
    const out: TextPerplexity[] = [];
    for (const [index, doc] of docs.entries()) {
      const first = doc.instances[0];
      const answer = first && answers?.resps[first.id]?.[0];
      const tokens =
        this.tokenizer && hasTokenScoring(backend) ? (await backend.tokenize(texts[index])).length : null;
      out.push({
        logprob: typeof answer === 'number' ? answer : Number.NaN,
        textTokens: tokens,
        scoredTokens: tokens,
        windows:
          tokens === null || !this.tokenizer ? null : Math.ceil(tokens / this.tokenizer.maxWindowTokens),
      });
    }
    return out;
  }

  /**
   * After scoring: the scored task anew, each scored doc of a rolling task a new doc with its counts
   * (`ppl`), token_perplexity [Σ log p, scored tokens] when tokens are known, and word/byte denominators
   * replaced by the scored spans' counts where not every token was scored. The docs given are left as
   * they were.
   */
  annotate(scored: ScoredTask): ScoredTask {
    const task = this.tasks.get(scored.plan.task.name);
    if (!task) return scored;
    const byDoc = new Map(task.plan.docs.map((doc, index) => [doc.docId, task.texts[index]]));
    const hasTokens = task.texts.length > 0 && task.texts.every((text) => text.scoredTokens !== null);
    const annotated = (doc: ScoredDoc): ScoredDoc => {
      const text = byDoc.get(doc.docId);
      if (!text || doc.error !== undefined) return doc;
      const ppl = docPerplexity(text, task.settings.mode === 'chunked');
      if ('bypass' in doc.metrics) return { ...doc, ppl };
      const metrics = { ...doc.metrics };
      if (text.scoredText) {
        for (const [name, count] of [
          ['word_perplexity', text.scoredText.words],
          ['byte_perplexity', text.scoredText.bytes],
          ['bits_per_byte', text.scoredText.bytes],
        ] as const) {
          if (Array.isArray(metrics[name])) metrics[name] = [text.logprob, count];
        }
      }
      if (hasTokens) metrics.token_perplexity = [text.logprob, text.scoredTokens];
      return { ...doc, metrics, ppl };
    };
    const byFilter = new Map([...scored.byFilter].map(([filter, docs]) => [filter, docs.map(annotated)]));
    const metricList = withTokenPerplexity(scored.plan.metricList, hasTokens);
    return { ...scored, plan: { ...scored.plan, metricList }, byFilter };
  }

  /** results.json `perplexity`: one entry per rolling task, from the first filter's scored docs. */
  report(scoredTasks: ScoredTask[]): Record<string, PerplexityReport> {
    const out: Record<string, PerplexityReport> = {};
    for (const scored of scoredTasks) {
      const task = this.tasks.get(scored.plan.task.name);
      if (!task) continue;
      const identity: ReportIdentity = {
        mode: task.settings.mode,
        mode_source: task.settings.source,
        parameters: describeParameters(task.settings, this.tokenizer),
        tokenizer: tokenizerBlock(this.tokenizer),
      };
      const docs = scored.byFilter.get(scored.filters[0]) ?? [];
      out[task.plan.task.name] = perplexityReport(identity, docs, task.seconds);
    }
    return out;
  }
}

function docPerplexity(text: TextPerplexity, chunked: boolean): DocPerplexity {
  const out: DocPerplexity = {
    logprob: text.logprob,
    text_tokens: text.textTokens,
    scored_tokens: text.scoredTokens,
    windows: text.windows,
    scored_spans: text.scoredText !== undefined,
  };
  if (chunked) out.nll_squares = sum((text.negativeLogLikelihoods ?? []).map((value) => value * value));
  return out;
}
