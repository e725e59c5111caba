/**
 * What scoring leaves where an `llm_judge` metric's value goes: the response to judge and the gold
 * references, for the judge stage (judge-stage.ts) to ask the judge about. Plain data with a marker key.
 */
export interface JudgeRequest {
  judgeRequest: true;
  /** The metric the judge scores (`llm_judge` in a YAML task; a TypeScript task's own name). */
  metric: string;
  response: string;
  references: string[];
}

export function judgeRequest(metric: string, response: string, references: string[]): JudgeRequest {
  return { judgeRequest: true, metric, response, references };
}

export function isJudgeRequest(value: unknown): value is JudgeRequest {
  return (
    value !== null && typeof value === 'object' && (value as Partial<JudgeRequest>).judgeRequest === true
  );
}
