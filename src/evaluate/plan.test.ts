/**
 * planTask's own work per doc: what it renders, and how often. The prompts themselves are compared with
 * lm-eval's in test/stages-golden.test.ts and src/prompts/parity.test.ts.
 */
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { writeChoiceTask } from '../../test/support/choice-task.js';
import { tempDir } from '../../test/support/helpers.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import type { Doc } from '../task-config/doc.js';
import type { DocFunction, FunctionRef } from '../task-config/function-ref.js';
import { resolveTasks } from '../tasks/manager.js';
import { type LoadedTask, leafTasks } from '../tasks/task.js';
import { planTask } from './plan.js';

const docs = Array.from({ length: 6 }, (_, i) => ({
  question: `Question ${i}?`,
  choices: ['yes', 'no', 'maybe'],
  answer: i % 3,
}));
const train = [
  { question: 'Shot one?', choices: ['yes', 'no', 'maybe'], answer: 1 },
  { question: 'Shot two?', choices: ['yes', 'no', 'maybe'], answer: 2 },
];

let task: LoadedTask;
beforeAll(async () => {
  const dir = tempDir('assay-plan-');
  const file = writeChoiceTask(dir, 'plan_counts', docs, { train, numFewshot: 2 });
  const nodes = await resolveTasks([path.resolve(file)], { builtinDir: false });
  [task] = nodes.flatMap(leafTasks);
});

const options = {
  numFewshot: 2,
  fewshotSeed: 1234,
  applyChatTemplate: false as const,
  fewshotAsMultiturn: false,
  genKwargs: {},
  backend: new DummyBackend(),
};

describe('planTask', () => {
  test("renders each eval doc's doc_to_text once, and each few-shot doc's once per task", async () => {
    const seen: string[] = [];
    const counted: FunctionRef<DocFunction> = {
      kind: 'function',
      ref: 'utils.doc_to_text',
      file: 'fixture:utils.ts',
      fn: (doc: Doc) => {
        seen.push(doc.question as string);
        return `${doc.question as string}\nAnswer:`;
      },
    } as FunctionRef<DocFunction>;
    const original = task.config.doc_to_text;
    task.config.doc_to_text = counted;
    try {
      const plan = await planTask(task, options);
      // Six eval docs once each (the prompt reuses the text the planner read), two shots once each.
      expect(seen.filter((question) => question.startsWith('Question')).sort()).toEqual(
        docs.map((doc) => doc.question),
      );
      expect(seen.filter((question) => question.startsWith('Shot')).sort()).toEqual([
        'Shot one?',
        'Shot two?',
      ]);
      // The prompt is still lm-eval's: Σ(text + target_delimiter + answer + fewshot_delimiter) + text,
      // the shots in the order the sampler drew them.
      const [first] = plan.docs;
      const shots = first.fewshotIds.map((id) => {
        const shot = train[id];
        return `${shot.question}\nAnswer: ${shot.choices[shot.answer]}\n\n`;
      });
      expect(first.fewshotIds).toHaveLength(2);
      expect(first.instances.map((instance) => instance.args)).toEqual(
        ['yes', 'no', 'maybe'].map((choice) => ({
          type: 'loglikelihood',
          context: `${shots.join('')}Question 0?\nAnswer:`,
          continuation: ` ${choice}`,
        })),
      );
    } finally {
      task.config.doc_to_text = original;
    }
  });
});
