/**
 * Model responses in the shapes lm-eval's Python task code receives: a log-likelihood answer is the
 * tuple `(logprob, is_greedy)`, a rolling log-likelihood a float, a generation a str.
 */
import { isPyTuple, PyFloat, pyTuple } from './codec.js';

function isLoglikelihood(value: object): value is { logprob: number; isGreedy: boolean } {
  const record = value as Record<string, unknown>;
  return typeof record.logprob === 'number' && typeof record.isGreedy === 'boolean';
}

/** `rolling`: the numbers are log-likelihoods, floats even when integral. */
export function pythonResponse(value: unknown, rolling = false): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => pythonResponse(item, rolling));
    return isPyTuple(value) ? pyTuple(items) : items;
  }
  if (typeof value === 'number') return rolling ? new PyFloat(value) : value;
  if (value !== null && typeof value === 'object' && isLoglikelihood(value)) {
    return pyTuple([new PyFloat(value.logprob), value.isGreedy]);
  }
  return value;
}
