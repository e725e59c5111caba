/**
 * TypeScript counterpart of lm-eval's lm_eval/tasks/wikitext/preprocess_wikitext.py (commit 4e7e0d47):
 * the detokenizer that turns WikiText's tokenized text back into prose, and per-document perplexity
 * inputs counted on the original page. Each `re.sub` is translated with Python's `\s` class.
 */
import { PY_SPACE_CLASS } from '../python-text.ts';

type Doc = Record<string, unknown>;

const S = PY_SPACE_CLASS;
const PARENS = new RegExp(`\\(${S}*([^\\)]*?)${S}*\\)`, 'g');
const BRACKETS = new RegExp(`\\[${S}*([^\\]]*?)${S}*\\]`, 'g');
const BRACES = new RegExp(`\\{${S}*([^}]*?)${S}*\\}`, 'g');
const DOUBLE_QUOTES = new RegExp(`"${S}*([^"]*?)${S}*"`, 'g');
const SINGLE_QUOTES = new RegExp(`'${S}*([^']*?)${S}*'`, 'g');
const WORD_SPLIT = new RegExp(`${S}+`);

export function wikitext_detokenizer(doc: Doc): string {
  let string = doc.page as string;
  // contractions
  string = string.replaceAll("s '", "s'");
  string = string.replace(/\/' [0-9]\//g, "/'[0-9]/");
  // number separators
  string = string.replaceAll(' @-@ ', '-');
  string = string.replaceAll(' @,@ ', ',');
  string = string.replaceAll(' @.@ ', '.');
  // punctuation
  string = string.replaceAll(' : ', ': ');
  string = string.replaceAll(' ; ', '; ');
  string = string.replaceAll(' . ', '. ');
  string = string.replaceAll(' ! ', '! ');
  string = string.replaceAll(' ? ', '? ');
  string = string.replaceAll(' , ', ', ');
  // double brackets (a function replacement: the group's text is inserted as is, `$` included)
  string = string.replace(PARENS, (_, inner: string) => `(${inner})`);
  string = string.replace(BRACKETS, (_, inner: string) => `[${inner}]`);
  string = string.replace(BRACES, (_, inner: string) => `{${inner}}`);
  string = string.replace(DOUBLE_QUOTES, (_, inner: string) => `"${inner}"`);
  string = string.replace(SINGLE_QUOTES, (_, inner: string) => `'${inner}'`);
  // miscellaneous
  string = string.replaceAll('= = = =', '====');
  string = string.replaceAll('= = =', '===');
  string = string.replaceAll('= =', '==');
  string = string.replaceAll(` ${String.fromCharCode(176)} `, String.fromCharCode(176));
  string = string.replaceAll(' \n', '\n');
  string = string.replaceAll('\n ', '\n');
  string = string.replaceAll(' N ', ' 1 ');
  string = string.replaceAll(" 's", "'s");
  return string;
}

/** Words and bytes are counted on the original page, before detokenization, as lm-eval does. */
export function process_results(doc: Doc, results: unknown[]): Record<string, [number, number]> {
  const [loglikelihood] = results as number[];
  const page = doc.page as string;
  const words = page.split(WORD_SPLIT).length;
  const bytes = Buffer.byteLength(page, 'utf8');
  return {
    word_perplexity: [loglikelihood, words],
    byte_perplexity: [loglikelihood, bytes],
    bits_per_byte: [loglikelihood, bytes],
  };
}
