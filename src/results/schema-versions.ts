/**
 * The results contract's version names, apart from its zod schemas (schema.ts): the writer stamps them
 * without loading the readers' schemas.
 */

/** What assay writes; readers also accept the versions in RESULTS_SCHEMAS_READ. */
export const RESULTS_SCHEMA = 'assay.results/v1';
export const RESULTS_SCHEMAS_READ: readonly string[] = [RESULTS_SCHEMA];
export const LEADERBOARD_SCHEMA = 'assay.leaderboard/v2';
export const LEADERBOARD_SCHEMAS_READ: readonly string[] = ['assay.leaderboard/v1', LEADERBOARD_SCHEMA];
