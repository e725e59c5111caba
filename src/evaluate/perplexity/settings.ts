/**
 * Which perplexity mode a rolling task runs in, and with what parameters: the run's `perplexity` option
 * (`mode`, `stride`, `maxLength`; --ppl_mode, --ppl_stride, --ppl_max_length) for the whole run, else the
 * task's `metadata.ppl_mode` (and `ppl_stride`, `ppl_max_length`), else lm-eval's rolling windows.
 */
import { z } from 'zod';
import { AssayError } from '../../errors.js';
import { hasTokenScoring, type ModelBackend, type TokenizerInfo } from '../../models/backend.js';
import { PPL_MODES } from '../../results/ppl-modes.js';
import type { PerplexitySource, PplMode } from '../../results/results-file.js';

/** The modes, as the results contract names them (results.json `perplexity[task].mode`). */
export { PPL_MODES, type PplMode };

/** What the user asked for (the run's option or a task's metadata); unset fields take defaults. */
export interface PerplexityOptions {
  mode?: PplMode;
  stride?: number;
  maxLength?: number;
}

/** A mode with every parameter settled. */
export type PerplexitySettings =
  | { mode: 'rolling'; source: PerplexitySource; maxLength: number | null }
  | { mode: 'strided'; source: PerplexitySource; maxLength: number; stride: number }
  | { mode: 'chunked'; source: PerplexitySource; nCtx: number };

/** Where a perplexity mode came from: the run's option, the task's metadata, or the default (the contract's). */
export type { PerplexitySource };

const positiveInteger = z.coerce.number().int().positive();
const optionsSchema = z.object({
  ppl_mode: z.enum(PPL_MODES).optional(),
  ppl_stride: positiveInteger.optional(),
  ppl_max_length: positiveInteger.optional(),
});

/** Validates a task's metadata (its ppl_* keys). */
export function parsePerplexityOptions(raw: Record<string, unknown>, where: string): PerplexityOptions {
  const parsed = optionsSchema.safeParse({
    ppl_mode: raw.ppl_mode,
    ppl_stride: raw.ppl_stride,
    ppl_max_length: raw.ppl_max_length,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AssayError('invalid_config', `${where}: ${issue.path.join('.')}: ${issue.message}`, {
      location: { field: 'metadata' },
    });
  }
  const { ppl_mode, ppl_stride, ppl_max_length } = parsed.data;
  return { mode: ppl_mode, stride: ppl_stride, maxLength: ppl_max_length };
}

export function needsTokenScoring(options: PerplexityOptions): boolean {
  return options.mode === 'strided' || options.mode === 'chunked';
}

/** The run's settings apply to every rolling task; a task's metadata applies when the run names no mode. */
export function chooseOptions(
  run: PerplexityOptions | undefined,
  metadata: Record<string, unknown> | undefined,
  taskName: string,
): { options: PerplexityOptions; source: PerplexitySource } {
  if (run?.mode) return { options: run, source: 'cli' };
  const own = parsePerplexityOptions(metadata ?? {}, `task ${taskName} metadata`);
  if (own.mode) return { options: { ...own, ...definedOnly(run) }, source: 'task' };
  if (run?.stride !== undefined || run?.maxLength !== undefined)
    return { options: { ...run, mode: 'rolling' }, source: 'cli' };
  return { options: { mode: 'rolling' }, source: 'default' };
}

function definedOnly(options: PerplexityOptions | undefined): PerplexityOptions {
  const out: PerplexityOptions = {};
  if (options?.stride !== undefined) out.stride = options.stride;
  if (options?.maxLength !== undefined) out.maxLength = options.maxLength;
  return out;
}

/** Throws at planning time when the backend cannot serve the mode. */
export function checkBackendFor(backend: ModelBackend, mode: PplMode, taskName: string): void {
  if (mode === 'rolling') return;
  if (!hasTokenScoring(backend)) {
    throw new AssayError(
      'capability_missing',
      `perplexity mode ${mode} (task ${taskName}) scores token windows the harness lays out itself, and model ${backend.name} does not declare token-level scoring (tokenize + scoreTokenWindows); use \`perplexity.mode\` rolling or a backend with this capability (gguf)`,
    );
  }
}

/** Fills in defaults (the backend's window length; stride = half of it, as HF's example) and checks bounds. */
export function settle(
  options: PerplexityOptions,
  source: PerplexitySource,
  tokenizer: TokenizerInfo | undefined,
): PerplexitySettings {
  const mode = options.mode ?? 'rolling';
  if (mode === 'rolling') {
    if (options.stride !== undefined || options.maxLength !== undefined) {
      throw new AssayError(
        'bad_option',
        "`perplexity.stride` and `perplexity.maxLength` apply to the strided and chunked modes; rolling mode uses the backend's own max length (gguf: `modelArgs` n_ctx=…), as lm-eval does",
        { location: { field: 'perplexity' } },
      );
    }
    return { mode, source, maxLength: tokenizer?.maxWindowTokens ?? null };
  }
  const limit = (tokenizer as TokenizerInfo).maxWindowTokens;
  const maxLength = options.maxLength ?? limit;
  if (maxLength > limit) {
    throw new AssayError(
      'bad_option',
      `\`perplexity.maxLength\` ${maxLength} is longer than the model's context of ${limit} tokens (raise it with \`modelArgs\` n_ctx=…)`,
      { location: { field: 'perplexity.maxLength' } },
    );
  }
  if (mode === 'chunked') {
    if (options.stride !== undefined)
      throw new AssayError(
        'bad_option',
        '`perplexity.stride` applies to strided mode; chunked mode has no stride',
        { location: { field: 'perplexity.stride' } },
      );
    return { mode, source, nCtx: maxLength };
  }
  const stride = options.stride ?? Math.max(1, Math.floor(maxLength / 2));
  if (stride > maxLength) {
    throw new AssayError(
      'bad_option',
      `\`perplexity.stride\` ${stride} is longer than the window (\`perplexity.maxLength\` ${maxLength}); tokens between windows would never be scored`,
      { location: { field: 'perplexity.stride' } },
    );
  }
  return { mode, source, maxLength, stride };
}

/** The parameters block of a perplexity report, with llama.cpp's and HF's names. */
export function describeParameters(
  settings: PerplexitySettings,
  tokenizer: TokenizerInfo | undefined,
): Record<string, unknown> {
  switch (settings.mode) {
    case 'rolling':
      return { max_length: settings.maxLength, context_len: 1, disjoint_windows: true };
    case 'strided':
      return { max_length: settings.maxLength, stride: settings.stride };
    case 'chunked':
      return {
        n_ctx: settings.nCtx,
        scored_positions: `${Math.floor(settings.nCtx / 2) + 1}..${settings.nCtx - 1} of each chunk`,
        bos_at_chunk_start: tokenizer?.addBos === true && tokenizer.bos !== null,
      };
  }
}
