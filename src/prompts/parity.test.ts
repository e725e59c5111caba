/**
 * Prompt parity with lm-eval: every expected string in test/fixtures/prompts/parity.ts was produced by lm-eval's own
 * prompt code (see that file's header for the files and commit). This test rebuilds each prompt with
 * assay's prompts/ modules, through the same seams the evaluator uses: FewshotSampler (one RNG per task,
 * consumed in doc order), docToChoice/docToTarget, buildContext, multipleChoiceContinuations.
 */
import { describe, expect, test } from 'vitest';
import { PARITY_CASES, type ParityCase } from '../../test/fixtures/prompts/parity.js';
import type { ChatMessage } from '../models/backend.js';
import { pythonSub } from '../python/semantics/regex.js';
import { pythonStrip } from '../python/semantics/string.js';
import type { Doc } from '../task-config/doc.js';
import type { FunctionRef } from '../task-config/function-ref.js';
import type { TaskConfig } from '../task-config/task-config.js';
import { buildContext, isMultipleInput, multipleChoiceContinuations } from './context.js';
import { docToChoice, docToTarget } from './doc-to.js';
import { FewshotSampler, isSameSplit } from './fewshot.js';

/** The chat template the fixture generator used (continue_final_message when there is no generation prompt). */
function chatMl(messages: ChatMessage[], addGenerationPrompt: boolean): string {
  let out = '';
  messages.forEach((message, index) => {
    const open = index === messages.length - 1 && !addGenerationPrompt && message.role === 'assistant';
    out += `<|im_start|>${message.role}\n${message.content}${open ? '' : '<|im_end|>\n'}`;
  });
  return addGenerationPrompt ? `${out}<|im_start|>assistant\n` : out;
}

// TypeScript counterpart of lm_eval/tasks/hellaswag/utils.py (process_docs): a fixture, as a task author
// would write it for assay. `dataset.map` keeps the original columns and adds the returned ones.
function hellaswagPreprocess(text: string): string {
  let out = pythonStrip(text, null, 'both');
  out = out.replaceAll(' [title]', '. ');
  out = pythonSub('\\[.*?\\]', '', out);
  return out.replaceAll('  ', ' ');
}

function capitalize(text: string): string {
  return text.length ? text[0].toUpperCase() + text.slice(1).toLowerCase() : text;
}

function hellaswagProcessDocs(docs: Doc[]): Doc[] {
  return docs.map((doc) => {
    const context = `${doc.ctx_a as string} ${capitalize(doc.ctx_b as string)}`;
    return {
      ...doc,
      query: hellaswagPreprocess(`${doc.activity_label as string}: ${context}`),
      choices: (doc.endings as string[]).map(hellaswagPreprocess),
      gold: Number.parseInt(doc.label as string, 10),
    };
  });
}

// TypeScript counterparts of lm_eval/tasks/winogrande/preprocess_winogrande.py.
function fixtureFunction<T>(ref: string, fn: (doc: Doc) => T): FunctionRef<(doc: Doc) => T> {
  return { kind: 'function', ref, file: 'fixture:preprocess_winogrande.ts', fn };
}
const WINOGRANDE_FUNCTIONS: Record<string, FunctionRef<(doc: Doc) => unknown>> = {
  '!function preprocess_winogrande.doc_to_text': fixtureFunction(
    'preprocess_winogrande.doc_to_text',
    (doc) => ({ '1': 0, '2': 1 })[doc.answer as '1' | '2'],
  ),
  '!function preprocess_winogrande.doc_to_target': fixtureFunction(
    'preprocess_winogrande.doc_to_target',
    (doc) => {
      const sentence = doc.sentence as string;
      return pythonStrip(sentence.slice(sentence.indexOf('_') + 1), null, 'both');
    },
  ),
  '!function preprocess_winogrande.doc_to_choice': fixtureFunction(
    'preprocess_winogrande.doc_to_choice',
    (doc) => {
      const sentence = doc.sentence as string;
      const index = sentence.indexOf('_');
      return [doc.option1, doc.option2].map((option) => sentence.slice(0, index) + (option as string));
    },
  ),
};

function taskConfig(raw: Record<string, unknown>): TaskConfig {
  const config: Record<string, unknown> = {
    target_delimiter: ' ',
    fewshot_delimiter: '\n\n',
    repeats: 1,
    ...raw,
  };
  for (const [key, value] of Object.entries(config)) {
    if (typeof value === 'string' && WINOGRANDE_FUNCTIONS[value]) config[key] = WINOGRANDE_FUNCTIONS[value];
  }
  // process_docs is applied to the fixture docs below; the ref string itself is not a FunctionRef.
  delete config.process_docs;
  return config as unknown as TaskConfig;
}

interface Built {
  context: string | string[];
  continuations?: string[];
  target: unknown;
  fewshotIndices: number[];
}

function buildCase(parity: ParityCase): Built[] {
  const config = taskConfig(parity.config);
  const docs = parity.rawDocs ? hellaswagProcessDocs(parity.rawDocs) : (parity.docs ?? []);
  const pool = parity.rawPool ? hellaswagProcessDocs(parity.rawPool) : parity.pool;
  const numFewshot = parity.numFewshot ?? 0;
  const sampler = pool
    ? new FewshotSampler({
        pool,
        sampler: config.fewshot_config?.sampler ?? 'default',
        seed: 1234,
        sameSplit: isSameSplit(config),
        task: config.task,
      })
    : undefined;
  const chat = parity.chat ? { render: chatMl, fewshotAsMultiturn: parity.multiturn ?? false } : undefined;
  const multipleInput = isMultipleInput(config, docs[0], { task: config.task, docId: 0 });
  return docs.map((doc, docId) => {
    const location = { task: config.task, docId };
    const shots = sampler && numFewshot > 0 ? sampler.sample(doc, numFewshot) : { docs: [], indices: [] };
    const base = {
      config,
      doc,
      location,
      fewshotDocs: shots.docs,
      systemInstruction: parity.systemInstruction,
      chat,
    };
    const target = docToTarget(config, doc, location);
    const choices = config.doc_to_choice === undefined ? undefined : docToChoice(config, doc, location);
    if (multipleInput && choices) {
      const built = choices.map((choice) => buildContext({ ...base, textOverride: choice }));
      return {
        context: built.map((item) => item.context),
        continuations: built.map((item) => `${item.targetDelimiter}${String(target)}`),
        target,
        fewshotIndices: shots.indices,
      };
    }
    const built = buildContext(base);
    let continuations: string[] | undefined;
    if (config.output_type === 'multiple_choice' && choices) {
      continuations = multipleChoiceContinuations(config, choices, built.targetDelimiter);
    } else if (config.output_type === 'loglikelihood') continuations = [String(target)];
    return { context: built.context, continuations, target, fewshotIndices: shots.indices };
  });
}

describe('prompts match lm-eval byte for byte', () => {
  for (const [name, parity] of Object.entries(PARITY_CASES)) {
    test(name, () => {
      expect(buildCase(parity)).toEqual(parity.expected);
    });
  }

  test('the default sampler case really depends on the seeded draw', () => {
    // Guards the fixture: with another seed the HellaSwag shots differ, so the case above tests the RNG.
    const parity = PARITY_CASES.hellaswag_2shot_default_sampler;
    const pool = hellaswagProcessDocs(parity.rawPool ?? []);
    const sampler = new FewshotSampler({ pool, seed: 42, sameSplit: true });
    const docs = hellaswagProcessDocs(parity.rawDocs ?? []);
    const indices = docs.map((doc) => sampler.sample(doc, 2).indices);
    expect(indices).not.toEqual(parity.expected.map((entry) => entry.fewshotIndices));
  });
});
