/**
 * Weights & Biases: refused, by name, before any work. lm-eval's `--wandb_args` logs through the
 * `wandb` Python SDK: summary metrics, a results table, per-task sample tables and artifacts. The one
 * Node client, @wandb/sdk (0.5.x), logs scalars only (no Tables, no artifacts), and the protocol
 * underneath (GraphQL `upsertBucket`, the run file stream, signed-URL file uploads) has no published
 * reference to build and test a client against: a loopback server written from guesses would test
 * nothing. MLflow and the Hub have published APIs, and their exports are tested request by request.
 */
import { AssayError } from '../errors.js';

/** Why: its upload protocol has no published API to implement and test a client against. */
export const WANDB_REASON =
  'Weights & Biases export is not supported (its upload protocol has no published API to implement and test a client against)';

export function wandbRefusal(): AssayError {
  return new AssayError(
    'not_supported',
    `\`to\` wandb: ${WANDB_REASON}; export to MLflow (\`to\` mlflow) or to a Hugging Face dataset (\`to\` hub) instead`,
    { location: { field: 'to' } },
  );
}
