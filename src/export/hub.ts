/**
 * Export to a Hugging Face Hub dataset repo, as lm-eval's `--hf_hub_log_args` does
 * (loggers/evaluation_tracker.py): aggregated results to `<org>/<results_repo_name>` at
 * `<model_name>/results_<time>.json`, sample logs to `<org>/<details_repo_name>` under
 * `<model_name_sanitized>/` (beside the results file and leaderboard, as lm-eval uploads the run's
 * folder), a `-private` suffix on both unless `public_repo=True`, and a dataset card with one config
 * per model and task (hub-card.ts). A partial run (a limit, errored or timed-out docs) says so in the
 * card, above its results, and in the commit's description. Each repo gets one commit, so a failed export leaves it unchanged.
 *
 * Uploads go through @huggingface/hub (the Hub's own JavaScript client): repo creation
 * (`POST /api/repos/create`), the commit API (`POST /api/datasets/<repo>/commit/<revision>`, NDJSON)
 * with its pre-upload check, and LFS uploads for the files the Hub wants in LFS (large sample logs).
 * HF_TOKEN (a token with write access) and HF_ENDPOINT are read as for downloads (data/hub/client.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { HubApiError as HubApiErrorClass } from '@huggingface/hub';
import { AssayError } from '../errors.js';
import { startOperation } from '../events.js';
import { quoteAnswer, redact } from '../util/secrets.js';
import { exportError } from './http.js';
import { buildDatasetCard } from './hub-card.js';
import { HUB_REQUEST_TIMEOUT_MS, hubTimeoutOf, timedFetch } from './hub-fetch.js';
import type { HubSettings } from './hub-settings.js';
import type { ExportSource } from './source.js';
import type { ExportContext, ExportReport } from './target.js';

/**
 * The folder of the aggregated results in the results repo: lm-eval uses the model name as given
 * (`EleutherAI/pythia-70m/results_….json`); a local path (`../models/m.gguf`) is no repo path, so
 * those use the sanitized folder name, as the details repo does.
 */
export function resultsFolder(modelName: string, sanitized: string): string {
  const segments = modelName.split('/');
  const hubStyle =
    segments.length <= 2 &&
    segments.every((segment) => /^[\w.-]+$/.test(segment) && segment !== '.' && segment !== '..');
  return hubStyle ? modelName : sanitized;
}

interface RepoPlan {
  repo: string;
  files: Map<string, string>;
  titles: string[];
}

function hubFailure(
  error: unknown,
  what: string,
  settings: HubSettings,
  HubApiError: typeof HubApiErrorClass,
): AssayError {
  if (error instanceof AssayError) return error;
  const timeout = hubTimeoutOf(error);
  if (timeout) {
    return exportError(
      `cannot ${what} on ${settings.endpoint}: ${timeout.message} (is the Hub up, and reachable from here?)`,
      [settings.token],
    );
  }
  if (error instanceof HubApiError) {
    const hint =
      error.statusCode === 401 || error.statusCode === 403
        ? '; check that HF_TOKEN is a token with write access to this namespace'
        : '';
    // The message is the Hub's answer: masked, then shortened.
    return exportError(
      `cannot ${what} on ${settings.endpoint}: HTTP ${error.statusCode}: ${quoteAnswer(error.message, [settings.token], 300)}${hint}`,
      [settings.token],
    );
  }
  const message = (error as Error)?.message ?? String(error);
  const reason = (error as { cause?: { code?: string; message?: string } })?.cause;
  const cause = reason?.code ?? reason?.message;
  return exportError(`cannot ${what} on ${settings.endpoint}: ${message}${cause ? ` (${cause})` : ''}`, [
    settings.token,
  ]);
}

export async function exportToHub(
  source: ExportSource,
  settings: HubSettings,
  context: ExportContext = {},
): Promise<ExportReport> {
  // Loaded on the first push, not when `assay run` loads this module (~45 ms of start-up).
  const { commit, createRepo, HubApiError, listFiles, whoAmI } = await import('@huggingface/hub');
  const { results } = source;
  if (settings.pushSamples && source.sampleFiles.size === 0) {
    throw new AssayError(
      'missing_sample_logs',
      `push_samples_to_hub=True needs the run's sample logs, and there are none beside ${source.resultsFile} (run with \`logSamples\`)`,
    );
  }
  const modelName = results.model_name ?? 'model';
  const sanitized = results.model_name_sanitized ?? path.basename(path.dirname(source.resultsFile));
  const credentials = {
    accessToken: settings.token,
    hubUrl: settings.endpoint,
    fetch: timedFetch(settings.timeoutMs ?? HUB_REQUEST_TIMEOUT_MS),
  };

  let org = settings.org;
  if (!org) {
    try {
      org = (await whoAmI(credentials)).name;
    } catch (error) {
      throw hubFailure(error, 'find the token owner (whoami) for hub_results_org', settings, HubApiError);
    }
    context.logger?.warn(`hub_results_org was not given: pushing to ${org}, the owner of HF_TOKEN`);
  }
  const suffix = settings.publicRepo ? '' : '-private';
  const plans = new Map<string, RepoPlan>();
  const plan = (name: string): RepoPlan => {
    const repo = `${org}/${name}${suffix}`;
    let entry = plans.get(repo);
    if (!entry) {
      entry = { repo, files: new Map(), titles: [] };
      plans.set(repo, entry);
    }
    return entry;
  };
  if (settings.pushResults) {
    const target = plan(settings.resultsRepoName);
    const folder = resultsFolder(modelName, sanitized);
    target.files.set(`${folder}/${path.basename(source.resultsFile)}`, source.resultsFile);
    target.titles.push(`Adding aggregated results for ${modelName}`);
  }
  if (settings.pushSamples) {
    const target = plan(settings.detailsRepoName);
    const files = [source.resultsFile, ...source.sampleFiles.values()];
    if (source.leaderboardFile) files.push(source.leaderboardFile);
    for (const file of files) target.files.set(`${sanitized}/${path.basename(file)}`, file);
    target.titles.push(
      `Adding samples results for ${[...source.sampleFiles.keys()].join(', ')} to ${modelName}`,
    );
  }

  const uploaded: string[] = [];
  for (const target of plans.values()) {
    const repo = { type: 'dataset' as const, name: target.repo };
    try {
      await createRepo({ ...credentials, repo, private: !settings.publicRepo });
      context.logger?.info(`created ${settings.publicRepo ? 'public' : 'private'} dataset ${target.repo}`);
    } catch (error) {
      // 409: the repo exists (lm-eval's create_repo(exist_ok=True)).
      if (!(error instanceof HubApiError && error.statusCode === 409))
        throw hubFailure(error, `create dataset ${target.repo}`, settings, HubApiError);
    }
    const existing: string[] = [];
    try {
      for await (const entry of listFiles({ ...credentials, repo, recursive: true }))
        if (entry.type === 'file') existing.push(entry.path);
    } catch (error) {
      throw hubFailure(error, `list the files of dataset ${target.repo}`, settings, HubApiError);
    }
    const paths = [...new Set([...existing, ...target.files.keys()])].filter((file) => file !== 'README.md');
    const card = buildDatasetCard({
      files: paths,
      modelName,
      assayVersion: results.assay_version ?? 'unknown',
      latestResults: results.results,
      leaderboardUrl: settings.leaderboardUrl,
      pointOfContact: settings.pointOfContact,
      partialReasons: source.partial.reasons,
    });
    const operations = [];
    for (const [repoPath, file] of target.files) {
      operations.push({
        operation: 'addOrUpdate' as const,
        path: repoPath,
        content: new Blob([await readFile(file)]),
      });
    }
    operations.push({ operation: 'addOrUpdate' as const, path: 'README.md', content: new Blob([card]) });
    const progress = startOperation(context.listener, {
      id: `hub:${target.repo}`,
      label: `upload ${operations.length} files to dataset ${target.repo} (one commit)`,
      unit: 'files',
    });
    try {
      await commit({
        ...credentials,
        repo,
        title: target.titles.join('; '),
        ...(source.partial.partial
          ? { description: `Partial run: ${source.partial.reasons.join('; ')}` }
          : {}),
        operations,
      });
    } catch (error) {
      throw hubFailure(error, `commit to dataset ${target.repo}`, settings, HubApiError);
    } finally {
      progress.end();
    }
    for (const repoPath of [...target.files.keys(), 'README.md']) uploaded.push(`${target.repo}:${repoPath}`);
  }
  const repos = [...plans.keys()];
  return {
    target: 'hub',
    url: repos.map((repo) => `${settings.endpoint}/datasets/${repo}`).join(', '),
    summary: redact(
      `pushed ${uploaded.length} files to ${repos.length === 1 ? `dataset ${repos[0]} (one commit)` : `datasets ${repos.join(' and ')} (one commit each)`}`,
      [settings.token],
    ),
    files: uploaded,
  };
}
