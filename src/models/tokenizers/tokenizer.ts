/**
 * The tokenizer seam of the served backends: text to token ids and back, as the model's tokenizer does
 * it. Two implementations: the server's own (`remote`: vLLM's and SGLang's /tokenize and /detokenize) and
 * a local Hugging Face `tokenizer.json` (`huggingface`, lm-eval's default for local-completions). Every
 * implementation runs `runTokenizerConformance`.
 */
export type TokenizerBackendName = 'huggingface' | 'remote';

/** Which tokenizer produced the token ids of a run; results record it. */
export interface TokenizerIdentity {
  backend: TokenizerBackendName;
  /** The tokenizer as the user named it (a path, a Hub id) or the served model. */
  name: string;
  /** Where it was read: the tokenizer.json file, or the server's /tokenize URL. */
  source: string;
  /** sha256 of the tokenizer.json bytes; null for a server's tokenizer, whose file is not visible. */
  sha256: string | null;
  /** Token strings in id order (with added tokens): their count, and sha256 of their JSON, as GGUF's. */
  vocabSize: number | null;
  vocabSha256: string | null;
  /** Why vocabulary fields are null. */
  note?: string;
  /** A tokenizer named by a Hub id: the revision asked, the commit it resolved to, and where it was read. */
  hub?: { repo: string; revision: string; commit: string; from: 'hub' | 'cache' };
}

export interface Tokenizer {
  readonly backend: TokenizerBackendName;
  /** Token ids of a text; with special tokens, what the tokenizer adds around a text (BOS for Llama). */
  encode(text: string, addSpecialTokens?: boolean): Promise<number[]>;
  /** Text of token ids, special tokens left out (vLLM's /detokenize, HF's skip_special_tokens). */
  decode(tokens: number[]): Promise<string>;
  /** What encoding with special tokens puts before a text (BOS), or null when it adds nothing there. */
  bos(): Promise<number | null>;
  /** lm-eval's prefix_token_id: the context of a text's first token (BOS, else EOS). */
  prefixToken(): Promise<number>;
  identity(): Promise<TokenizerIdentity>;
}
