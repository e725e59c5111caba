/**
 * Where the Hub is and who the caller is, from the environment as huggingface_hub reads it: HF_ENDPOINT
 * (default https://huggingface.co) and HF_TOKEN (or the older HUGGING_FACE_HUB_TOKEN). Apart from the
 * client so that checking `hf_hub_log_args` before a run loads no download code.
 */
export function hubEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  return (env.HF_ENDPOINT || 'https://huggingface.co').replace(/\/+$/, '');
}

export function hubToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.HF_TOKEN || env.HUGGING_FACE_HUB_TOKEN || undefined;
}
