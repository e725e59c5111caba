/**
 * Reads a judge's raw answer as the verdict its config asks for, and the number that verdict scores.
 * An answer that does not hold a verdict of that form is `{ ok: false }` with the reason: the sample is
 * errored with the judge's raw answer kept, never scored 0.
 */
import type { JudgeVerdictSpec } from './llm-judge-config.js';

export type VerdictReading = { ok: true; score: number; verdict: unknown } | { ok: false; reason: string };

const DEFAULT_SCORE_PATTERN = /(?:score|rating)\s*(?:is|of)?\s*[:=]?\s*\[*\s*(-?\d+(?:\.\d+)?)/i;
const WHOLE_NUMBER = /^\s*\[*\s*(-?\d+(?:\.\d+)?)\s*\]*\s*\.?\s*$/;

export function readVerdict(raw: string, spec: JudgeVerdictSpec): VerdictReading {
  if (spec.type === 'score') return readScore(raw, spec);
  if (spec.type === 'label') return readLabel(raw, spec.labels);
  return readJson(raw, spec.schema, spec.field);
}

/** One option of a log-likelihood verdict: the text scored as the prompt's continuation. */
export interface VerdictOption {
  /** The option as the judge would write it: a whole score of the scale, or a label. */
  text: string;
  /** The continuation scored: the option after one space, as lm-eval's target_delimiter puts it. */
  continuation: string;
}

/** A log-likelihood verdict's options: each whole number of the scale in order, or each label. */
export function verdictOptions(spec: JudgeVerdictSpec): VerdictOption[] {
  const texts =
    spec.type === 'score'
      ? Array.from({ length: spec.max - spec.min + 1 }, (_, index) => String(spec.min + index))
      : spec.type === 'label'
        ? Object.keys(spec.labels)
        : [];
  return texts.map((text) => ({ text, continuation: ` ${text}` }));
}

/**
 * The option a log-likelihood verdict picks from each option's log-likelihood (in `verdictOptions`
 * order): the most likely continuation, the first of equals. `answer` is the option's text.
 */
export function readLoglikelihoodVerdict(
  loglikelihoods: readonly number[],
  spec: JudgeVerdictSpec,
): VerdictReading & { answer?: string } {
  const options = verdictOptions(spec);
  if (options.length === 0 || loglikelihoods.length !== options.length) {
    return { ok: false, reason: `${loglikelihoods.length} log-likelihoods for ${options.length} options` };
  }
  let best = 0;
  for (const [index, value] of loglikelihoods.entries()) {
    if (!Number.isFinite(value) && value !== Number.NEGATIVE_INFINITY) {
      return { ok: false, reason: `option ${options[index].text} has no log-likelihood` };
    }
    if (value > loglikelihoods[best]) best = index;
  }
  // Every option impossible is no preference for the first one.
  if (loglikelihoods[best] === Number.NEGATIVE_INFINITY) {
    return { ok: false, reason: 'every option has log-likelihood -Infinity' };
  }
  const answer = options[best].text;
  if (spec.type === 'label') return { ok: true, score: spec.labels[answer], verdict: answer, answer };
  return { ok: true, score: Number(answer), verdict: Number(answer), answer };
}

function readScore(raw: string, spec: Extract<JudgeVerdictSpec, { type: 'score' }>): VerdictReading {
  const pattern = spec.pattern === undefined ? DEFAULT_SCORE_PATTERN : new RegExp(spec.pattern);
  const match = pattern.exec(raw) ?? (spec.pattern === undefined ? WHOLE_NUMBER.exec(raw) : null);
  if (!match) return { ok: false, reason: 'no score found in the answer' };
  const score = Number(match[1] ?? match[0]);
  if (!Number.isFinite(score)) return { ok: false, reason: `"${match[1] ?? match[0]}" is not a number` };
  if (score < spec.min || score > spec.max) {
    return { ok: false, reason: `score ${score} is outside the scale [${spec.min}, ${spec.max}]` };
  }
  return { ok: true, score, verdict: score };
}

/**
 * The label the answer gives: the whole answer (trimmed, case and trailing punctuation ignored), else the
 * one label that appears in it as a word. Two labels present ("correct" and "incorrect") is ambiguous.
 */
function readLabel(raw: string, labels: Record<string, number>): VerdictReading {
  const names = Object.keys(labels);
  const bare = raw
    .trim()
    .replace(/[.!\s]+$/, '')
    .toLowerCase();
  const exact = names.find((name) => name.toLowerCase() === bare);
  if (exact !== undefined) return { ok: true, score: labels[exact], verdict: exact };
  const present = names.filter((name) =>
    new RegExp(`(^|[^\\p{L}\\p{N}_])${escapeRegExp(name)}($|[^\\p{L}\\p{N}_])`, 'iu').test(raw),
  );
  if (present.length === 1) return { ok: true, score: labels[present[0]], verdict: present[0] };
  if (present.length === 0)
    return { ok: false, reason: `none of the labels ${names.join(', ')} in the answer` };
  return { ok: false, reason: `ambiguous: the answer names ${present.join(' and ')}` };
}

function readJson(raw: string, schema: Record<string, unknown>, field: string): VerdictReading {
  const text = jsonText(raw);
  if (text === undefined) return { ok: false, reason: 'no JSON object in the answer' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `invalid JSON: ${(error as Error).message}` };
  }
  const problem = schemaProblem(value, schema, '$');
  if (problem) return { ok: false, reason: `the JSON does not match the schema: ${problem}` };
  const score = (value as Record<string, unknown>)[field];
  if (typeof score !== 'number' || !Number.isFinite(score)) {
    return { ok: false, reason: `field "${field}" is not a number` };
  }
  return { ok: true, score, verdict: value };
}

/** The answer's JSON object: inside a ``` fence if there is one, else from the first "{" to the last "}". */
function jsonText(raw: string): string | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(raw);
  const body = fenced ? fenced[1] : raw;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  return start >= 0 && end > start ? body.slice(start, end + 1) : undefined;
}

/** The first way `value` breaks the schema subset (type, properties, required, enum, minimum, maximum). */
function schemaProblem(value: unknown, schema: Record<string, unknown>, at: string): string | undefined {
  const type = schema.type;
  if (typeof type === 'string' && !hasType(value, type)) return `${at} is not of type ${type}`;
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => option === value)) {
    return `${at} is not one of ${JSON.stringify(schema.enum)}`;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      return `${at} is below ${schema.minimum}`;
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      return `${at} is above ${schema.maximum}`;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of Array.isArray(schema.required) ? schema.required : []) {
      if (!(String(key) in record)) return `${at}.${key} is missing`;
    }
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [key, subschema] of Object.entries(properties)) {
      if (!(key in record)) continue;
      const problem = schemaProblem(record[key], subschema, `${at}.${key}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
