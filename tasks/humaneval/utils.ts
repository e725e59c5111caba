/**
 * HumanEval's scoring, the TypeScript counterpart of lm-eval's tasks/humaneval/utils.py. The programs
 * are not run here: process_results returns a code-score request (plain data) that assay's code stage
 * runs in the sandbox, so this module needs nothing from assay itself.
 */
type Doc = Record<string, unknown>;

/** pass@k is reported for each of these k that is at most the number of samples (repeats). */
const K = [1, 10];

/** lm-eval's build_predictions: each completion is appended to the problem's prompt. */
export function build_predictions(resps: string[][], docs: Doc[]): string[][] {
  return resps.map((resp, index) => resp.map((completion) => String(docs[index].prompt) + completion));
}

/** One program per sample: the completed function, the problem's tests, then check(entry_point). */
export function process_results(doc: Doc, results: unknown[]): Record<string, unknown> {
  const first = results[0];
  const samples = (Array.isArray(first) ? first : [first]).map(String);
  const test = `${doc.test}\ncheck(${doc.entry_point})`;
  return {
    pass_at_k: {
      kind: 'assay.code_score',
      programs: samples.map((sample) => ({ language: 'python', source: `${sample}\n${test}\n` })),
      rule: { type: 'pass_at_k', k: K },
    },
  };
}
