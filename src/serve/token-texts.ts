/**
 * The texts of a text prompt's tokens, made to spell the prompt exactly, as vLLM's echo does. The
 * engine decodes each token in context (prompt-logprobs.ts), which spells what the tokens decode to: a
 * SentencePiece vocabulary adds a space before the first word and after every special token that the
 * prompt's text does not have (" Question" for "Question", a lone " " token before "A"). Such a space is
 * dropped from the token that carries it, so the tokens concatenate to the prompt and offsets counted
 * from them index the prompt's text. Tokens the server added (the BOS of `add_special_tokens`) spell "".
 */

export interface TokenTexts {
  texts: string[];
  /** Per token, the leading whitespace dropped from its decoded text ("" where none was). */
  dropped: string[];
}

/**
 * `pieces` are the prompt's tokens decoded in context, the first `added` of them added by the server.
 * Undefined when no such dropping makes them spell `prompt` (a token decodes to other text, e.g. an
 * unknown character): the decoded texts are then the honest answer.
 */
export function spellPrompt(pieces: string[], added: number, prompt: string): TokenTexts | undefined {
  const texts = pieces.map((piece, i) => (i < added ? '' : piece));
  const dropped = pieces.map(() => '');
  let at = 0;
  for (let i = added; i < pieces.length; i++) {
    const piece = pieces[i];
    if (prompt.startsWith(piece, at)) {
      at += piece.length;
      continue;
    }
    const space = /^\s+/u.exec(piece)?.[0] ?? '';
    let cut = 1;
    while (cut <= space.length && !prompt.startsWith(piece.slice(cut), at)) cut++;
    if (cut > space.length) return undefined;
    texts[i] = piece.slice(cut);
    dropped[i] = piece.slice(0, cut);
    at += texts[i].length;
  }
  return at === prompt.length ? { texts, dropped } : undefined;
}

/** Length in Unicode code points, the unit of Python's len() and so of vLLM's text_offset. */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}
