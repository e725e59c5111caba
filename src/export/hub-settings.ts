/**
 * The Hub target's settings: lm-eval's `hf_hub_log_args` keys (its EvaluationTracker arguments) and
 * HF_TOKEN, checked before any work. Apart from the upload code (hub.ts), which a run loads only when
 * it pushes.
 */
import { z } from 'zod';
import { hubEndpoint, hubToken } from '../data/hub/endpoint.js';
import { AssayError, closestNames } from '../errors.js';

export interface HubSettings {
  endpoint: string;
  token: string;
  /** The namespace of both repos; the token's owner (whoami) when absent. */
  org?: string;
  detailsRepoName: string;
  resultsRepoName: string;
  pushResults: boolean;
  pushSamples: boolean;
  publicRepo: boolean;
  leaderboardUrl?: string;
  pointOfContact?: string;
  /**
   * The limit of one request to the Hub, connecting to the last byte of its answer, in milliseconds
   * (default HUB_REQUEST_TIMEOUT_MS, 60 s; uploads get more for their size, see hub-fetch.ts).
   */
  timeoutMs?: number;
}

const flagBoolean = z.union([
  z.boolean(),
  z.enum(['True', 'False', 'true', 'false']).transform((v) => v.toLowerCase() === 'true'),
]);
const repoPart = z
  .string()
  .regex(/^[\w.-]{1,96}$/, 'letters, digits, "_", "-" and "." (at most 96)')
  .refine(
    (value) => !value.startsWith('.') && !value.includes('..'),
    'cannot start with "." or contain ".."',
  );

/** lm-eval's EvaluationTracker arguments (`token` aside: the token comes from HF_TOKEN). */
const hubArgsSchema = z
  .object({
    hub_results_org: z.union([repoPart, z.literal('')]).default(''),
    hub_repo_name: z.union([repoPart, z.literal('')]).default(''),
    details_repo_name: z.union([repoPart, z.literal('')]).default(''),
    results_repo_name: z.union([repoPart, z.literal('')]).default(''),
    push_results_to_hub: flagBoolean.default(false),
    push_samples_to_hub: flagBoolean.default(false),
    public_repo: flagBoolean.default(false),
    leaderboard_url: z.string().default(''),
    point_of_contact: z.string().default(''),
  })
  .strict();

const HUB_ARG_KEYS = Object.keys(hubArgsSchema.shape);

/** Checks lm-eval's `hf_hub_log_args` keys (already split into an object) and HF_TOKEN, before any work. */
export function hubSettingsFromArgs(
  args: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  flag: string,
): HubSettings {
  if ('token' in args) {
    throw new AssayError(
      'bad_option',
      `${flag}: pass the token in HF_TOKEN, not on the command line (where shell history and process lists keep it)`,
    );
  }
  if ('gated' in args) {
    throw new AssayError(
      'not_supported',
      `${flag}: gated is not supported; gate the repo in its settings on the Hub`,
    );
  }
  for (const key of Object.keys(args)) {
    if (!HUB_ARG_KEYS.includes(key)) {
      const close = closestNames(key, HUB_ARG_KEYS, 1);
      throw new AssayError(
        'bad_option',
        `${flag}: unknown key "${key}"${close.length ? `; did you mean "${close[0]}"?` : ''} (keys: ${HUB_ARG_KEYS.join(', ')})`,
      );
    }
  }
  const checked = hubArgsSchema.safeParse(
    Object.fromEntries(Object.entries(args).map(([key, value]) => [key, value === null ? '' : value])),
  );
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new AssayError('bad_option', `${flag}: ${issue.path.join('.')}: ${issue.message}`);
  }
  const values = checked.data;
  if (!values.push_results_to_hub && !values.push_samples_to_hub) {
    throw new AssayError(
      'bad_option',
      `${flag}: nothing to push: set push_results_to_hub=True and/or push_samples_to_hub=True`,
    );
  }
  const token = hubToken(env);
  if (!token) {
    throw new AssayError(
      'missing_credentials',
      `${flag}: HF_TOKEN is not set: pushing to the Hub needs a token with write access to ${values.hub_results_org || 'your namespace'}`,
    );
  }
  // lm-eval: hub_repo_name (deprecated) names both repos; else details defaults to lm-eval-results.
  const details = values.hub_repo_name || values.details_repo_name || 'lm-eval-results';
  const results = values.hub_repo_name || values.results_repo_name || details;
  return {
    endpoint: hubEndpoint(env),
    token,
    org: values.hub_results_org || undefined,
    detailsRepoName: details,
    resultsRepoName: results,
    pushResults: values.push_results_to_hub,
    pushSamples: values.push_samples_to_hub,
    publicRepo: values.public_repo,
    leaderboardUrl: values.leaderboard_url || undefined,
    pointOfContact: values.point_of_contact || undefined,
  };
}
