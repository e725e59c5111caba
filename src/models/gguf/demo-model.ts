import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cacheDirectory } from '../../util/cache-directory.js';
import { DEMO_CORPUS } from './demo-corpus.js';
import {
  asciiCharPieces,
  buildSpmVocab,
  type LlamaWeights,
  llamaGguf,
  SPM_SPACE,
  type SpmVocab,
} from './llama-model.js';
import { type GgufFile, writeGguf } from './writer.js';

/**
 * The built-in demo model: a token bigram language model fitted to DEMO_CORPUS, written as a
 * one-block llama so that the real engine runs it. Its vocabulary is BPE-trained on the corpus and
 * stored as SentencePiece pieces ranked by merge order, which llama.cpp's SPM tokenizer replays.
 *
 * How the weights encode the bigram table: each context class d (a piece, BOS, newline, or "other")
 * has a one-hot embedding of height sqrt(n_embd); the block's attention and FFN output matrices are
 * zero, so the residual stream stays that one-hot vector; the final RMSNorm with weight 1/sqrt(n_embd)
 * turns it into exactly one-hot, and output.weight[d][j] = log P(j | d) makes the logits the log
 * bigram probabilities. The model is therefore exact and its scores mean what a bigram model's do.
 */

/** Bump when the corpus, the vocabulary or the fitting changes: it names the cached file. */
export const DEMO_MODEL_VERSION = 1;
const MERGES = 320;
const BIGRAM_PRIOR = 2;
const UNIGRAM_ADD = 0.05;

const CHAT_TEMPLATE =
  "{% for message in messages %}{{ message['role'] + ': ' + message['content'] + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ 'assistant:' }}{% endif %}";

/** Words as SentencePiece sees them without a space prefix: "a b" → ["a", "▁b"]; newlines split words. */
function corpusWords(text: string): string[] {
  const words: string[] = [];
  for (const line of text.split('\n')) {
    const escaped = line.replaceAll(' ', SPM_SPACE);
    for (const match of escaped.matchAll(new RegExp(`${SPM_SPACE}?[^${SPM_SPACE}]+|${SPM_SPACE}`, 'gu'))) {
      words.push(match[0]);
    }
  }
  return words;
}

/** Byte-pair merges learned on the corpus words; ties broken by the pair's text, so training is deterministic. */
function trainMerges(words: string[], merges: number): string[] {
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  const segmented = [...counts.entries()].map(([word, count]) => ({ symbols: [...word], count }));
  const learned: string[] = [];
  for (let step = 0; step < merges; step++) {
    const pairs = new Map<string, { count: number; left: string; right: string }>();
    for (const { symbols, count } of segmented) {
      for (let i = 0; i + 1 < symbols.length; i++) {
        const key = `${symbols[i]}\u0000${symbols[i + 1]}`;
        const entry = pairs.get(key);
        if (entry) entry.count += count;
        else pairs.set(key, { count, left: symbols[i], right: symbols[i + 1] });
      }
    }
    let best: { count: number; left: string; right: string } | undefined;
    for (const entry of pairs.values()) {
      const text = entry.left + entry.right;
      if (!best || entry.count > best.count || (entry.count === best.count && text < best.left + best.right))
        best = entry;
    }
    if (!best || best.count < 2) break;
    const merged = best.left + best.right;
    learned.push(merged);
    for (const item of segmented) {
      const next: string[] = [];
      for (let i = 0; i < item.symbols.length; i++) {
        if (
          i + 1 < item.symbols.length &&
          item.symbols[i] === best.left &&
          item.symbols[i + 1] === best.right
        ) {
          next.push(merged);
          i++;
        } else next.push(item.symbols[i]);
      }
      item.symbols = next;
    }
  }
  return learned;
}

/** llama.cpp's SPM merge order: highest-scoring adjacent pair first, leftmost on ties; byte fallback. */
function spmTokenize(text: string, vocab: SpmVocab, ids: Map<string, number>): number[] {
  const symbols = [...text.replaceAll(' ', SPM_SPACE)];
  for (;;) {
    let bestIndex = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let i = 0; i + 1 < symbols.length; i++) {
      const id = ids.get(symbols[i] + symbols[i + 1]);
      if (id !== undefined && vocab.scores[id] > bestScore) {
        bestScore = vocab.scores[id];
        bestIndex = i;
      }
    }
    if (bestIndex < 0) break;
    symbols.splice(bestIndex, 2, symbols[bestIndex] + symbols[bestIndex + 1]);
  }
  const tokens: number[] = [];
  for (const symbol of symbols) {
    const id = ids.get(symbol);
    if (id !== undefined) tokens.push(id);
    else for (const byte of Buffer.from(symbol, 'utf8')) tokens.push(3 + byte);
  }
  return tokens;
}

/** The demo model as a GGUF file (deterministic). */
export function demoModelGguf(): GgufFile {
  const merges = trainMerges(corpusWords(DEMO_CORPUS), MERGES);
  const pieces = asciiCharPieces();
  const known = new Set(pieces.map((entry) => entry.piece));
  merges.forEach((piece, rank) => {
    // Earlier merges score higher, so llama.cpp applies them first, as BPE training did.
    if (!known.has(piece)) pieces.push({ piece, score: -(rank + 1) });
    known.add(piece);
  });
  const vocab = buildSpmVocab(pieces);
  const ids = new Map(vocab.tokens.map((token, id) => [token, id]));
  const nVocab = vocab.tokens.length;
  const firstPiece = 3 + 256;
  const newline = 3 + 0x0a;

  // Context classes: one per piece, then BOS, newline and "everything else".
  const pieceClasses = nVocab - firstPiece;
  const bosClass = pieceClasses;
  const newlineClass = pieceClasses + 1;
  const otherClass = pieceClasses + 2;
  const classOf = (token: number) =>
    token >= firstPiece
      ? token - firstPiece
      : token === vocab.bos
        ? bosClass
        : token === newline
          ? newlineClass
          : otherClass;
  const nEmbd = Math.ceil((otherClass + 1) / 16) * 16;

  const bigram = new Float64Array(nEmbd * nVocab);
  const unigram = new Float64Array(nVocab);
  for (const line of DEMO_CORPUS.split('\n')) {
    if (line === '') continue;
    const tokens = [vocab.bos, ...spmTokenize(line, vocab, ids), newline];
    for (let i = 0; i + 1 < tokens.length; i++) {
      bigram[classOf(tokens[i]) * nVocab + tokens[i + 1]] += 1;
      unigram[tokens[i + 1]] += 1;
    }
  }
  let unigramTotal = 0;
  for (let j = 0; j < nVocab; j++) {
    // Control tokens other than EOS are never predicted in text.
    if (j === vocab.bos || j === vocab.unk) continue;
    unigram[j] += UNIGRAM_ADD;
    unigramTotal += unigram[j];
  }
  const output = new Float32Array(nEmbd * nVocab);
  for (let d = 0; d < nEmbd; d++) {
    let rowTotal = 0;
    for (let j = 0; j < nVocab; j++) rowTotal += bigram[d * nVocab + j];
    for (let j = 0; j < nVocab; j++) {
      const prior = unigram[j] / unigramTotal;
      const probability = (bigram[d * nVocab + j] + BIGRAM_PRIOR * prior) / (rowTotal + BIGRAM_PRIOR);
      // ggml layout: output.weight is [n_embd, n_vocab], so token j's row holds one value per class d.
      output[j * nEmbd + d] = probability > 0 ? Math.log(probability) : -1e4;
    }
  }
  const height = Math.sqrt(nEmbd);
  const tokenEmbedding = new Float32Array(nEmbd * nVocab);
  for (let token = 0; token < nVocab; token++) tokenEmbedding[token * nEmbd + classOf(token)] = height;
  const zeros = (count: number) => new Float32Array(count);
  const ones = (count: number) => new Float32Array(count).fill(1);
  const nFf = 16;
  const weights: LlamaWeights = {
    tokenEmbedding,
    outputNorm: new Float32Array(nEmbd).fill(1 / height),
    output,
    blocks: [
      {
        attnNorm: ones(nEmbd),
        q: zeros(nEmbd * nEmbd),
        k: zeros(nEmbd * nEmbd),
        v: zeros(nEmbd * nEmbd),
        attnOutput: zeros(nEmbd * nEmbd),
        ffnNorm: ones(nEmbd),
        gate: zeros(nEmbd * nFf),
        up: zeros(nEmbd * nFf),
        down: zeros(nFf * nEmbd),
      },
    ],
  };
  return llamaGguf(
    {
      name: `assay-demo-bigram-v${DEMO_MODEL_VERSION}`,
      contextLength: 2048,
      embeddingLength: nEmbd,
      blockCount: 1,
      feedForwardLength: nFf,
      headCount: 8,
      headCountKv: 8,
      // Tiny, so that RMSNorm of the one-hot vector is exact to float precision.
      rmsEpsilon: 1e-6,
      chatTemplate: CHAT_TEMPLATE,
    },
    vocab,
    weights,
  );
}

/** Where cached models live: assay's cache folder. */
export { cacheDirectory };

/** Builds the demo model on first use and returns its cached path. */
export async function ensureDemoModel(directory = cacheDirectory()): Promise<string> {
  const file = path.join(directory, `demo-bigram-v${DEMO_MODEL_VERSION}.gguf`);
  if (existsSync(file)) return file;
  await mkdir(directory, { recursive: true });
  // Write then rename, so a concurrent first run never reads a half-written file.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, writeGguf(demoModelGguf()));
  await rename(temporary, file);
  return file;
}
