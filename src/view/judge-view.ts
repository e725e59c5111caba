/**
 * A sample line's judge calls as the viewer shows them: the prompt split into its system and user
 * messages (a judge with a system message is sent the chat as a JSON message list), the raw answer or, for
 * a log-likelihood verdict, each option's log-likelihood with the one picked, and the verdict with its
 * score or the reason there is none. A jury has one call per juror, pairwise judging one per order.
 */
import { judgeCallSchema } from '../results/sample-line.js';
import type { JudgeCallView } from './api.js';

/** The judge calls of a sample line's `judge` field; a line without one, or a malformed one, has none. */
export function judgeCallsView(judge: unknown): JudgeCallView[] {
  if (!Array.isArray(judge)) return [];
  const calls: JudgeCallView[] = [];
  for (const entry of judge) {
    const parsed = judgeCallSchema.safeParse(entry);
    if (!parsed.success) continue;
    const call = parsed.data;
    const { system, user } = chatParts(call.prompt);
    const options = call.loglikelihoods
      ? Object.entries(call.loglikelihoods).map(([option, logprob]) => ({
          option,
          // JSON writes −∞ as null: an option the judge gives no probability.
          logprob: logprob ?? Number.NEGATIVE_INFINITY,
          picked: option === call.raw,
        }))
      : null;
    calls.push({
      metric: call.metric,
      model: call.model,
      order: call.order ?? null,
      system,
      user,
      raw: options ? null : call.raw,
      options,
      verdict: call.verdict === null || call.verdict === undefined ? null : verdictText(call.verdict),
      score: call.score,
      error: call.error ?? null,
    });
  }
  return calls;
}

/** A chat prompt's system and user messages; any other prompt is the user's text as it was sent. */
function chatParts(prompt: string): { system: string | null; user: string } {
  if (!prompt.startsWith('[')) return { system: null, user: prompt };
  let messages: unknown;
  try {
    messages = JSON.parse(prompt);
  } catch {
    return { system: null, user: prompt };
  }
  const isMessage = (value: unknown): value is { role: string; content: string } =>
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { role?: unknown }).role === 'string' &&
    typeof (value as { content?: unknown }).content === 'string';
  if (!Array.isArray(messages) || !messages.every(isMessage)) return { system: null, user: prompt };
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  const others = messages.filter((message) => message.role !== 'system');
  return {
    system: system.length > 0 ? system.join('\n\n') : null,
    user:
      others.length === 1 && others[0].role === 'user'
        ? others[0].content
        : others.map((message) => `${message.role}: ${message.content}`).join('\n\n'),
  };
}

function verdictText(verdict: unknown): string {
  return typeof verdict === 'string' ? verdict : JSON.stringify(verdict);
}
