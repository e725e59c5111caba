/**
 * Runs for the viewer's tests, made from real runs' files: a copy of a run folder, optionally edited (a
 * "perfect" model whose logged acc is 1 on every doc, a partial run, a run without sample logs), and an
 * independent exact McNemar p-value to say what a paired test of two logs must find.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type Edit = (text: string, name: string) => string | null;

/** Copies every file of a run folder; `edit` may change a file's text, or drop it by returning null. */
export function copyRun(from: string, to: string, edit?: Edit): string {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const text = readFileSync(path.join(from, name), 'utf8');
    const edited = edit ? edit(text, name) : text;
    if (edited !== null) writeFileSync(path.join(to, name), edited);
  }
  return to;
}

/**
 * A run of the viewer_colours fixture turned into one that got every doc right: acc 1 on each logged
 * line, and the results' acc 1 with stderr 0 and the Wilson interval of 60/60 ([0.9398, 1]).
 */
/** A results file as these edits touch it. */
export type ResultsJson = {
  model_name: string;
  partial?: boolean;
  config: Record<string, unknown>;
  results: Record<string, Record<string, unknown>>;
  higher_is_better: Record<string, Record<string, boolean>>;
};

export function perfect(
  options: { model?: string; samples?: boolean; results?: (results: ResultsJson) => void } = {},
): Edit {
  return (text, name) => {
    if (name.startsWith('samples_')) {
      if (options.samples === false) return null;
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => `${JSON.stringify({ ...JSON.parse(line), acc: 1 })}\n`)
        .join('');
    }
    if (!name.startsWith('results_')) return text;
    const results = JSON.parse(text) as ResultsJson;
    if (options.model) results.model_name = options.model;
    Object.assign(results.results.viewer_colours, {
      'acc,none': 1,
      'acc_stderr,none': 0,
      'acc_ci,none': [0.94, 1],
    });
    options.results?.(results);
    return JSON.stringify(results);
  };
}

/** A copy without its sample logs: what a run made without --log_samples leaves. */
export const withoutSamples: Edit = (text, name) => (name.startsWith('samples_') ? null : text);

/** Two-sided exact McNemar p: the binomial(b + c, ½) probability of a split at least as uneven as b:c. */
export function exactMcNemarP(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let tail = 0;
  let term = 0.5 ** n; // C(n, 0) / 2^n
  for (let k = 0; k <= Math.min(b, c); k++) {
    tail += term;
    term = (term * (n - k)) / (k + 1);
  }
  return Math.min(1, 2 * tail);
}

/** Discordant pairs of two sample logs of 0/1 `acc`, paired by doc_id. */
export function discordant(
  a: { doc_id: number; acc: number }[],
  b: { doc_id: number; acc: number }[],
): { aOnly: number; bOnly: number } {
  const byDoc = new Map(b.map((line) => [line.doc_id, line.acc]));
  let aOnly = 0;
  let bOnly = 0;
  for (const line of a) {
    const other = byDoc.get(line.doc_id);
    if (line.acc === 1 && other === 0) aOnly++;
    if (line.acc === 0 && other === 1) bOnly++;
  }
  return { aOnly, bOnly };
}
