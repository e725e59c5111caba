/**
 * The simple task format: one JSON object per line, `{"id", "prompt", "targets": [...], "metric",
 * "extras"?}`; the file name is the task name. Blank lines and lines starting with `#` are skipped.
 *
 * Generation uses lm-eval's defaults for a generate_until task without generation_kwargs (greedy,
 * 256 tokens, stop at "\n\n"), so a prompt scores the same here as in an equivalent YAML task.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeUtf8 } from '../data/utf8.js';
import { AssayError, closestNames } from '../errors.js';
import { parseJudgeConfig } from '../metrics/llm-judge-config.js';
import { getAggregation, getMetric } from '../metrics/registry.js';
import type { MetricDefinition } from '../metrics/types.js';
import { CODE_SCORE_KIND, type CodeScoreRequest } from '../sandbox/code-score-request.js';
import { type IoTest, ioProgram } from '../sandbox/io-tests.js';
import { LANGUAGES, type Language } from '../sandbox/types.js';
import type { Doc } from '../task-config/doc.js';
import type { TaskConfig } from '../task-config/task-config.js';
import { hashFiles } from './source-hash.js';
import type { LoadedTask } from './task.js';

export const JSONL_METRICS = [
  'exact_match',
  'substring_contains',
  'multiple_choice',
  'rouge_l',
  'code_exec',
  'llm_judge',
] as const;
export type JsonlMetric = (typeof JSONL_METRICS)[number];

/** The task score of a file that mixes metrics: the mean over all its lines of each line's own metric. */
export const MIXED_SCORE = 'score';

/** The registry name of each JSONL metric; JSONL exact_match normalises differently from lm-eval's. */
const REGISTRY_NAMES: Record<Exclude<JsonlMetric, 'code_exec' | 'llm_judge'>, string> = {
  exact_match: 'jsonl_exact_match',
  substring_contains: 'substring_contains',
  multiple_choice: 'multiple_choice',
  rouge_l: 'rouge_l',
};

const LINE_KEYS = ['id', 'prompt', 'targets', 'metric', 'extras'];

export interface JsonlLine {
  id: string | number;
  prompt: string;
  targets: string[];
  metric: JsonlMetric;
  extras?: Record<string, unknown>;
}

function badLine(file: string, line: number, message: string): AssayError {
  return new AssayError('bad_jsonl_line', message, { location: { file, line } });
}

/** Parses and checks every line; the first bad line stops with its line number and the reason. */
export function parseJsonlTask(text: string, file: string): JsonlLine[] {
  const lines: JsonlLine[] = [];
  const lineNumbers: number[] = [];
  const ids = new Map<string, number>();
  const rows = text.split('\n');
  for (let index = 0; index < rows.length; index++) {
    const lineNumber = index + 1;
    const raw = rows[index].trim();
    if (raw === '' || raw.startsWith('#')) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw badLine(file, lineNumber, `invalid JSON: ${(error as Error).message}`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw badLine(file, lineNumber, 'expected a JSON object with id, prompt, targets and metric');
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (LINE_KEYS.includes(key)) continue;
      const suggestion = closestNames(key, LINE_KEYS, 1);
      throw badLine(
        file,
        lineNumber,
        `unknown key "${key}"${suggestion.length ? `; did you mean "${suggestion[0]}"?` : ''} (put extra data under "extras")`,
      );
    }
    const { id, prompt, targets, metric, extras } = record;
    if (typeof id !== 'string' && typeof id !== 'number')
      throw badLine(file, lineNumber, '"id" must be a string or number');
    if (typeof prompt !== 'string') throw badLine(file, lineNumber, '"prompt" must be a string');
    // code_exec is judged by its tests, so its targets may be empty.
    if (
      !Array.isArray(targets) ||
      (targets.length === 0 && metric !== 'code_exec') ||
      !targets.every((target) => typeof target === 'string')
    ) {
      throw badLine(file, lineNumber, '"targets" must be a non-empty list of strings');
    }
    if (typeof metric !== 'string' || !(JSONL_METRICS as readonly string[]).includes(metric)) {
      throw badLine(
        file,
        lineNumber,
        `"metric" must be one of ${JSONL_METRICS.join(', ')}; got ${JSON.stringify(metric)}`,
      );
    }
    if (extras !== undefined && (extras === null || typeof extras !== 'object' || Array.isArray(extras))) {
      throw badLine(file, lineNumber, '"extras" must be a JSON object');
    }
    const key = String(id);
    const previous = ids.get(key);
    if (previous !== undefined)
      throw badLine(file, lineNumber, `duplicate id ${JSON.stringify(id)} (first on line ${previous})`);
    ids.set(key, lineNumber);
    if (metric === 'code_exec')
      checkCodeExtras(extras as Record<string, unknown> | undefined, file, lineNumber);
    lineNumbers.push(lineNumber);
    lines.push({
      id,
      prompt,
      targets: targets as string[],
      metric: metric as JsonlMetric,
      ...(extras ? { extras: extras as Record<string, unknown> } : {}),
    });
  }
  if (lines.length === 0) {
    throw new AssayError('bad_jsonl_line', 'the task file has no lines', { location: { file } });
  }
  checkJudgeLines(lines, lineNumbers, file);
  return lines;
}

/**
 * llm_judge lines (docs/judge.md): a file of them has one judge, its block under `extras.judge` on at least
 * one line and the same block on every line that repeats it; the judge's scores are on its own scale, so
 * such a file holds no other metric (a mixed file's `score` is a mean of 0-1 scores).
 */
function checkJudgeLines(lines: JsonlLine[], lineNumbers: number[], file: string): void {
  const judged = lines.flatMap((line, index) => (line.metric === 'llm_judge' ? [index] : []));
  if (judged.length === 0) return;
  const other = lines.findIndex((line) => line.metric !== 'llm_judge');
  if (other !== -1) {
    throw badLine(
      file,
      lineNumbers[other],
      `"metric" ${lines[other].metric} in a file of llm_judge lines (first on line ${lineNumbers[judged[0]]}): a judge scores on its own scale, so its lines go in a file of their own`,
    );
  }
  let block: { line: number; text: string } | undefined;
  for (const index of judged) {
    const raw = lines[index].extras?.judge;
    if (raw === undefined) continue;
    const parsed = parseJudgeConfig(raw);
    if ('issue' in parsed) {
      throw badLine(
        file,
        lineNumbers[index],
        `extras.judge.${parsed.issue.path.join('.')}: ${parsed.issue.message}`,
      );
    }
    const text = JSON.stringify(raw);
    if (!block) block = { line: lineNumbers[index], text };
    else if (text !== block.text) {
      throw badLine(
        file,
        lineNumbers[index],
        `extras.judge differs from the one on line ${block.line}: a file has one judge`,
      );
    }
  }
  if (!block) {
    throw badLine(
      file,
      lineNumbers[judged[0]],
      'llm_judge lines need their judge: a block under "extras.judge" (the judge model, its args, the rubric; docs/judge.md)',
    );
  }
}

/** The judge block of a file of llm_judge lines (checked by parseJsonlTask), or undefined. */
export function jsonlJudge(lines: readonly JsonlLine[]): Record<string, unknown> | undefined {
  for (const line of lines) {
    const raw = line.extras?.judge;
    if (line.metric === 'llm_judge' && raw !== undefined) return raw as Record<string, unknown>;
  }
  return undefined;
}

/**
 * code_exec lines: `extras: {"language"?: "python" | "javascript", "tests": [{"input", "output"?, "stdout"?}]}`,
 * or the lesson's `extras: {"io_pairs": [[x, y], …]}`: f is called with the one argument x and must return y.
 */
function checkCodeExtras(extras: Record<string, unknown> | undefined, file: string, line: number): void {
  const language = extras?.language ?? 'python';
  if (!(LANGUAGES as readonly unknown[]).includes(language)) {
    throw badLine(
      file,
      line,
      `code_exec "extras.language" must be one of ${LANGUAGES.join(', ')}; got ${JSON.stringify(language)}`,
    );
  }
  const hasTests = extras !== undefined && 'tests' in extras;
  const hasPairs = extras !== undefined && 'io_pairs' in extras;
  if (hasTests && hasPairs) {
    throw badLine(
      file,
      line,
      'code_exec takes "extras.tests" or "extras.io_pairs", not both (they would be two definitions of the same check)',
    );
  }
  if (hasPairs) {
    checkIoPairs(extras.io_pairs, file, line);
    return;
  }
  const tests = extras?.tests;
  if (!Array.isArray(tests) || tests.length === 0) {
    throw badLine(
      file,
      line,
      'code_exec needs "extras.tests": a non-empty list of {"input": [args], "output": value, "stdout"?: text}, or "extras.io_pairs": a non-empty list of [input, output]',
    );
  }
  tests.forEach((test, index) => {
    if (!test || typeof test !== 'object' || Array.isArray(test) || !('input' in test)) {
      throw badLine(
        file,
        line,
        `code_exec "extras.tests[${index}]" must be an object with "input" (the list of arguments for f)`,
      );
    }
    if (!('output' in test) && !('stdout' in test)) {
      throw badLine(
        file,
        line,
        `code_exec "extras.tests[${index}]" needs "output", "stdout" or both to compare against`,
      );
    }
    if ('stdout' in test && typeof test.stdout !== 'string') {
      throw badLine(file, line, `code_exec "extras.tests[${index}].stdout" must be a string`);
    }
  });
}

function checkIoPairs(pairs: unknown, file: string, line: number): void {
  if (!Array.isArray(pairs) || pairs.length === 0) {
    throw badLine(file, line, 'code_exec "extras.io_pairs" must be a non-empty list of [input, output]');
  }
  pairs.forEach((pair, index) => {
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw badLine(
        file,
        line,
        `code_exec "extras.io_pairs[${index}]" must be [input, output] (f is called with the one argument input), got ${JSON.stringify(pair)?.slice(0, 80)}`,
      );
    }
  });
}

/**
 * The tests of a code_exec line. An io_pair `[x, y]` is the test `{"input": [x], "output": y}`: f gets x
 * as its one argument even when x is a list, and y is compared on the host like any test's output.
 */
export function codeExecTests(extras: Record<string, unknown>): IoTest[] {
  if (Array.isArray(extras.io_pairs)) {
    return (extras.io_pairs as Array<[unknown, unknown]>).map(([input, output]) => ({
      input: [input],
      output,
    }));
  }
  return extras.tests as IoTest[];
}

/**
 * The program that checks one code_exec answer, left for the evaluator's code stage to run. `alsoAs`
 * names further metrics that report the same fraction (a mixed file's task-wide `score`).
 */
export function codeExecRequest(doc: Doc, prediction: string, alsoAs: string[] = []): CodeScoreRequest {
  const extras = doc.extras as Record<string, unknown> & { language?: Language };
  const tests = codeExecTests(extras);
  return {
    kind: CODE_SCORE_KIND,
    programs: [ioProgram(extras.language ?? 'python', prediction, tests)],
    rule: { type: 'io_tests', metric: 'code_exec', tests, ...(alsoAs.length ? { alsoAs } : {}) },
  };
}

export function jsonlTaskConfig(name: string, runsCode = false): TaskConfig {
  return {
    task: name,
    output_type: 'generate_until',
    doc_to_text: 'prompt',
    doc_to_target: 'targets',
    target_delimiter: ' ',
    fewshot_delimiter: '\n\n',
    // The file has no examples to draw from, so --num_fewshot never applies (lm-eval never overrides 0).
    num_fewshot: 0,
    repeats: 1,
    // Code has blank lines, so a file with code_exec lines does not stop at "\n\n"; its answers are
    // model-written programs, so it is unsafe_code like lm-eval's code tasks.
    generation_kwargs: runsCode
      ? { temperature: 0.0, do_sample: false, max_gen_toks: 512, until: [] }
      : { temperature: 0.0, do_sample: false, max_gen_toks: 256, until: ['\n\n'] },
    ...(runsCode ? { unsafe_code: true } : {}),
  };
}

export async function loadJsonlTask(file: string): Promise<LoadedTask> {
  const absolute = path.resolve(file);
  let bytes: Buffer;
  try {
    bytes = await readFile(absolute);
  } catch (error) {
    throw new AssayError('unknown_task', `cannot read task file ${absolute}: ${(error as Error).message}`, {
      location: { file: absolute },
      cause: error,
    });
  }
  const lines = parseJsonlTask(decodeUtf8(bytes, absolute), absolute);
  const used = [...new Set(lines.map((line) => line.metric))];
  const definitions = new Map<string, MetricDefinition>();
  for (const metric of used) {
    if (metric === 'code_exec' || metric === 'llm_judge') continue;
    try {
      definitions.set(metric, getMetric(REGISTRY_NAMES[metric]));
    } catch (error) {
      throw new AssayError(
        'unknown_metric',
        `JSONL metric ${metric} is not available: ${(error as Error).message}`,
        {
          location: { file: absolute },
          cause: error,
        },
      );
    }
  }
  const name = path.basename(absolute, '.jsonl');
  const docs: Doc[] = lines.map((line) => ({ ...line }));
  // A file whose lines use several metrics has one task score, the mean of every line's own score
  // (each in [0, 1]); the per-metric means over the lines that use them are reported beside it.
  const mixed = used.length > 1;
  const judge = jsonlJudge(lines);
  const reported = mixed ? [MIXED_SCORE, ...used] : used;
  return {
    kind: 'task',
    name,
    config: jsonlTaskConfig(name, used.includes('code_exec')),
    source: { format: 'jsonl', path: absolute, sha256: await hashFiles([absolute]) },
    version: null,
    evalDocs: async () => docs,
    fewshotDocs: async () => [],
    custom: {
      // A file of llm_judge lines: the judge stage scores each answer against the line's targets.
      ...(judge ? { judges: { llm_judge: judge } } : {}),
      // Each line names its own metric, so a doc reports only that metric (and, in a mixed file, the
      // task score); aggregation skips docs without a metric, so each is the mean over its lines.
      processResults: (doc, results) => {
        const metric = doc.metric as string;
        const prediction = String(results[0] ?? '');
        // Scored by the judge stage (judges above), from the request the evaluator adds for it.
        if (metric === 'llm_judge') return {};
        if (metric === 'code_exec')
          return { code_exec: codeExecRequest(doc, prediction, mixed ? [MIXED_SCORE] : []) };
        const definition = definitions.get(metric);
        if (!definition?.compute) {
          throw new AssayError('unknown_metric', `JSONL metric ${metric} has no generation scorer`, {
            location: { file: absolute, docId: String(doc.id) },
          });
        }
        const value = definition.compute({
          references: doc.targets as string[],
          prediction,
          // `extras` is data for the reader of the samples, not metric arguments.
          kwargs: {},
        });
        return mixed ? { [MIXED_SCORE]: value, [metric]: value } : { [metric]: value };
      },
      // The registry's own mean, so the evaluator knows these are means (closed-form stderr, t/Wilson CI).
      aggregation: Object.fromEntries(reported.map((metric) => [metric, getAggregation('mean')])),
      higherIsBetter: Object.fromEntries(reported.map((metric) => [metric, true])),
    },
  };
}
