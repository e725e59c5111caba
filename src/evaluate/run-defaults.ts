/**
 * The plain defaults of the run's options, written here once: the schema (run-options.ts) applies them,
 * and `assay run`'s help shows them. They sit apart from the schema so that the CLI's option table can
 * read them without loading zod (about 0.2 s of CPU at every start-up, `assay --version` included).
 * Defaults that are more than a value live beside their check: the seeds in seeds.ts (DEFAULT_SEEDS), the
 * multiple-choice mode in mc-generate.ts (checkMcMode), and those derived from another option in the
 * schema's last step.
 */
export const RUN_DEFAULTS = {
  /** lm-eval's simple_evaluate: bootstrap_iters = 100000. */
  bootstrapIters: 100000,
  /** lm-eval's --batch_size default. */
  batchSize: 1,
  applyChatTemplate: false,
  predictOnly: false,
  includePerExample: false,
} as const;
