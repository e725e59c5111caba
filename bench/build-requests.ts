/**
 * Child process of bench/run.ts: resolves an MMLU-sized synthetic task and builds every request
 * (contexts with 5-shot examples, 4 continuations per doc). Prints JSON with the timings and peak RSS.
 *   npx tsx bench/build-requests.ts <task.yaml>
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { planTask } from '../src/evaluate/plan.js';
import { DummyBackend } from '../src/models/dummy/dummy-backend.js';
import { resolveTasks } from '../src/tasks/manager.js';
import { leafTasks } from '../src/tasks/task.js';

const file = process.argv[2];
const baselineStart = performance.now();
const raw = readFileSync(path.join(path.dirname(file), 'data', 'test.jsonl'), 'utf8');
let parsed = 0;
for (const line of raw.split('\n')) if (line) parsed += JSON.parse(line) ? 1 : 0;
const baselineMs = performance.now() - baselineStart;

const start = performance.now();
const [task] = (await resolveTasks([file], { builtinDir: false })).flatMap(leafTasks);
const plan = await planTask(task, {
  numFewshot: 5,
  fewshotSeed: 1234,
  applyChatTemplate: false,
  fewshotAsMultiturn: false,
  genKwargs: {},
  backend: new DummyBackend(),
});
const ms = performance.now() - start;
const requests = plan.docs.reduce((sum, doc) => sum + doc.instances.length, 0);
process.stdout.write(
  `${JSON.stringify({ docs: plan.docs.length, parsed, requests, ms, baselineMs, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
