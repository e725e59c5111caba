/**
 * A document: one row of a task's dataset, as the loaders read it and lm-eval's task functions receive it
 * (a dict in Python). The bottom layer of the task config types (src/task-config/): data/, metrics/,
 * python/, prompts/ and tasks/ all pass docs, so the type sits below them all.
 */
export type Doc = Record<string, unknown>;
