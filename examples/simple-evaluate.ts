/**
 * Evaluating from inside a program, as a training loop would: the model is an object the program holds,
 * the task is defined in code, and nothing is written to disk (no outputPath).
 *
 *   npm run build && npx tsx examples/simple-evaluate.ts
 *
 * The "model" here is a toy that learns one arithmetic operation per epoch, so the score visibly climbs.
 */
import { AssayError, defineTask, simpleEvaluate } from 'assay';
import type {
  BackendCapabilities,
  GenerateRequest,
  LoglikelihoodRequest,
  ModelBackend,
  ModelInfo,
  RollingRequest,
} from 'assay/backend';

interface Problem extends Record<string, unknown> {
  a: number;
  b: number;
  op: '+' | '-' | '*';
  answer: number;
}

const OPS: Problem['op'][] = ['+', '-', '*'];
const problems: Problem[] = Array.from({ length: 30 }, (_, index) => {
  const a = (index * 7) % 13;
  const b = (index * 5) % 11;
  const op = OPS[index % OPS.length];
  return { a, b, op, answer: op === '+' ? a + b : op === '-' ? a - b : a * b };
});

const arithmetic = defineTask<Problem>({
  name: 'toy_arithmetic',
  docs: problems,
  docToText: (doc) => `Question: What is ${doc.a} ${doc.op} ${doc.b}?\nAnswer:`,
  docToTarget: (doc) => String(doc.answer),
  generationKwargs: { until: ['\n'], max_gen_toks: 8 },
  processResults: (doc, [answer]) => ({ exact_match: String(answer).trim() === String(doc.answer) ? 1 : 0 }),
  aggregation: { exact_match: (items) => (items as number[]).reduce((sum, x) => sum + x, 0) / items.length },
  higherIsBetter: { exact_match: true },
});

/** A model that can only do the operations it has "learned" so far. */
class ToyModel implements ModelBackend {
  readonly specificationVersion = 'v1';
  readonly name = 'toy';
  readonly capabilities: BackendCapabilities = {
    loglikelihood: false,
    loglikelihoodRolling: false,
    generate: true,
    tokenScoring: false,
    generationLogprobs: false,
    chatTemplate: false,
    usage: false,
  };
  readonly learned = new Set<string>();

  async generate(requests: GenerateRequest[]): Promise<string[]> {
    return requests.map((request) => {
      const match = /What is (-?\d+) ([-+*]) (-?\d+)\?/.exec(request.context);
      if (!match || !this.learned.has(match[2])) return ' I do not know';
      const [a, b] = [Number(match[1]), Number(match[3])];
      return ` ${match[2] === '+' ? a + b : match[2] === '-' ? a - b : a * b}`;
    });
  }

  // Declared false above: a run that needs these stops at planning, and a direct call is refused.
  async loglikelihood(_requests: LoglikelihoodRequest[]): Promise<never[]> {
    throw new AssayError('capability_missing', 'the toy model only generates');
  }

  async loglikelihoodRolling(_requests: RollingRequest[]): Promise<never[]> {
    throw new AssayError('capability_missing', 'the toy model only generates');
  }

  info(): ModelInfo {
    return { name: 'toy' };
  }
}

const model = new ToyModel();
for (const [epoch, op] of OPS.entries()) {
  model.learned.add(op); // stands in for a training step
  const { results } = await simpleEvaluate({ model, tasks: [arithmetic] });
  const scores = results.results.toy_arithmetic as Record<string, unknown>;
  const value = scores['exact_match,none'] as number;
  const stderr = scores['exact_match_stderr,none'] as number;
  process.stdout.write(`epoch ${epoch + 1}: exact_match ${value.toFixed(4)} ± ${stderr.toFixed(4)}\n`);
}
